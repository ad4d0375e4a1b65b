// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Ensign",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Ensign", targets: ["Ensign"]),
        .library(name: "EnsignControl", targets: ["EnsignControl"]),
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
        .executableTarget(name: "EnsignCLI", dependencies: ["Ensign", "EnsignControl"]),
        // The benchmarks (`scripts/bench`): an executable target but not a product, so apps
        // never see it. CYAML is there for the raw libyaml scan the loader is compared with.
        .executableTarget(
            name: "EnsignBenchmarks",
            dependencies: ["Ensign", "EnsignYAML", "CYAML", "CAllocationCounter"],
            path: "Sources/EnsignBenchmarks"
        ),
        // Counts heap allocations by interposing malloc (glibc only); linked by the benchmarks alone.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),
        .testTarget(name: "EnsignYAMLTests", dependencies: ["EnsignYAML"]),
        .testTarget(name: "EnsignTests", dependencies: ["Ensign"]),
        .testTarget(name: "EnsignCLITests", dependencies: ["EnsignCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
