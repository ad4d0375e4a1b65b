// swift-tools-version: 6.1
// An app built as on iOS: it depends on Ensign without the YAML trait, so no libyaml is built
// or linked, and it ships its flags as JSON (`Flags.bundle.json`, made by `ensign export
// --flags flags/` from the sample app's YAML). `scripts/test` builds it, runs its tests, and
// checks with readelf that neither the app nor the tests link libyaml.
import PackageDescription

let package = Package(
    name: "WithoutYAML",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "Ensign", path: "../../..", traits: [])],
    targets: [
        .executableTarget(name: "JSONOnlyApp", dependencies: [.product(name: "Ensign", package: "Ensign")]),
        .testTarget(name: "JSONOnlyTests", dependencies: [.product(name: "Ensign", package: "Ensign")]),
    ],
    swiftLanguageModes: [.v6]
)
