// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Ensign",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Ensign", targets: ["Ensign"]),
        .library(name: "EnsignControl", targets: ["EnsignControl"]),
        .library(name: "EnsignFleet", targets: ["EnsignFleet"]),
        .executable(name: "ensign", targets: ["EnsignCLI"]),
    ],
    targets: [
        // libyaml's C API and nothing else; only EnsignYAML imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "EnsignYAML", dependencies: ["CYAML"]),
        .target(name: "Ensign", dependencies: ["EnsignYAML"]),
        .target(name: "EnsignControl", dependencies: ["Ensign"]),
        // The fleet layer from etcd: an HTTP/1.1 client over sockets, etcd's JSON gateway, the source.
        .target(name: "EnsignFleet", dependencies: ["Ensign"]),
        .executableTarget(name: "EnsignCLI", dependencies: ["Ensign", "EnsignControl", "EnsignFleet"]),
        // Fuzz targets: a replay tool in normal builds, a libFuzzer binary under scripts/fuzz.
        .executableTarget(name: "EnsignFuzz", dependencies: ["Ensign"]),
        .testTarget(name: "EnsignYAMLTests", dependencies: ["EnsignYAML"]),
        .testTarget(name: "EnsignTests", dependencies: ["Ensign", "EnsignTestProbe"]),
        // A helper process for tests that need several writers or a killed one.
        .executableTarget(name: "EnsignTestProbe", dependencies: ["Ensign"], path: "Tests/EnsignTestProbe"),
        .testTarget(name: "EnsignCLITests", dependencies: ["EnsignCLI"]),
        .testTarget(name: "EnsignFleetTests", dependencies: ["EnsignFleet", "EnsignCLI", "EnsignFleetProbe"]),
        // An app instance joining a fleet, for tests that run several app processes.
        .executableTarget(
            name: "EnsignFleetProbe", dependencies: ["Ensign", "EnsignFleet"], path: "Tests/EnsignFleetProbe"),
    ],
    swiftLanguageModes: [.v6]
)
