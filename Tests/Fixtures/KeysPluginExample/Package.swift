// swift-tools-version: 6.0
// An app that uses EnsignKeysPlugin: `Wallet` (a library) and `ExampleApp` (an executable)
// each declare their flags in YAML and read them through generated typed keys.
// `scripts/test` builds and runs it; see the README's "Typed keys" section.
import PackageDescription

let package = Package(
    name: "KeysPluginExample",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "Ensign", path: "../../..")],
    targets: [
        .target(
            name: "Wallet",
            dependencies: [.product(name: "Ensign", package: "Ensign")],
            // The definitions are the plugin's input, not sources or resources.
            exclude: ["Definitions", "ensign-keys.json"],
            plugins: [.plugin(name: "EnsignKeysPlugin", package: "Ensign")]
        ),
        .executableTarget(
            name: "ExampleApp",
            dependencies: ["Wallet", .product(name: "Ensign", package: "Ensign")],
            exclude: ["flags"],
            plugins: [.plugin(name: "EnsignKeysPlugin", package: "Ensign")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
