import Ensign
import Foundation
import Wallet

// Reads every key twice: first from a context with no definitions, so each key gives the code
// default generated from the YAML; then from the YAML files themselves with an environment
// overlay that changes some values.

func report(_ title: String, _ context: AppContext) {
    print("\(title):")
    let theme: AppearanceTheme = context[.appearanceTheme]
    let lines =
        [
            "app.greeting = \(context[.appGreeting])",
            "app.pageSize = \(context[.appPageSize])",
            "appearance.theme = \(theme)",
        ] + walletSummary(context)
    for line in lines { print("  " + line) }
}

report("code defaults", AppContext(values: [:]))

let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let wallet = try String(contentsOf: sources.appending(path: "Wallet/Definitions/wallet.yaml"), encoding: .utf8)
let app = try String(contentsOf: sources.appending(path: "ExampleApp/flags/app.yaml"), encoding: .utf8)
let overlay = """
    flags:
      app.pageSize: 50
      wallet.currencyStyle: ISO-name
      wallet.banner: { title: Sale, priority: 9 }
    """
let context = try AppContext(definitions: wallet, app, environment: "production", environmentOverlay: overlay)
report("production", context)
