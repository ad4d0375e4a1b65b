import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// A `defaultVariant` that names no variant: flagd's daemon refuses such a file, its Python
/// core reports an error; Ensign makes it an error confined to the flag (issue 18, item 7). So
/// does a defaultVariant that is not a string, which flagd's schema and daemon refuse too.
@Suite("A defaultVariant that names no variant breaks only its flag")
struct BrokenDefaultVariantTests {
    static let definitions = """
        {
          "flags": {
            "checkout.newFlow": {
              "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "of"
            },
            "checkout.pageSize": { "type": "int", "default": 20 }
          }
        }
        """

    @Test("The context loads; the flag reads its code default with ERROR, PARSE_ERROR and the position")
    func contextLoads() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.json", Self.definitions)
        let context = try unwatchedContext(directory.path, environment: "test")
        #expect(context.value(forKeyNamed: "checkout.pageSize") == 20)
        let details = context.details(for: FlagKey("checkout.newFlow", default: true))
        #expect(details.value == true)
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.errorMessage == "defaultVariant 'of' is not among its variants (off, on) at \(file):4:87")
        #expect(context.loadDiagnostics.map(\.severity) == [.warning])
        #expect(context.loadDiagnostics.first?.message.contains("did you mean 'off'?") == true)
    }

    @Test("An override still applies to the flag")
    func overrideApplies() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.json", Self.definitions)
        let context = try unwatchedContext(directory.path, environment: "test")
        try context.setOverride(keyNamed: "checkout.newFlow", to: true)
        #expect(context.details(forKeyNamed: "checkout.newFlow").reason == .override)
    }

    @Test("validate reports it as an error, and eval reads PARSE_ERROR")
    func validateAndEvaluate() throws {
        let loaded = loadDefinitions(["flags/app.json": Self.definitions])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "flags/app.json:4:87: error: 'checkout.newFlow' defaultVariant 'of' is not among its variants "
                    + "(off, on); did you mean 'off'?"
            ])
        #expect(loaded.flagErrors == loaded.diagnostics)
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        let details = evaluator.details(forKeyNamed: "checkout.newFlow", context: [:])
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
    }

    @Test(
        "A defaultVariant that is not a string (a bool, a number, a list) breaks only its flag, in JSON and YAML",
        arguments: [
            (
                "app.json",
                #"{"flags": {"f": {"state": "ENABLED", "variants": {"true": 1, "off": 2}, "defaultVariant": true}}}"#,
                "a bool (true)", "1:91"
            ),
            (
                "app.json",
                #"{"flags": {"f": {"state": "ENABLED", "variants": {"1": 1, "off": 2}, "defaultVariant": 1}}}"#,
                "an int (1)", "1:88"
            ),
            (
                "app.yaml", "flags:\n  f: { variants: { \"true\": 1, off: 2 }, defaultVariant: true }\n",
                "a bool (true)", "2:57"
            ),
            ("app.yaml", "flags:\n  f: { variants: { on: 1, off: 2 }, defaultVariant: [on] }\n", "a sequence", "2:53"),
        ])
    func notAString(file: String, text: String, found: String, position: String) throws {
        let loaded = loadDefinitions(["flags/\(file)": text])
        let message = loaded.diagnostics.map(\.description).joined()
        #expect(message.hasPrefix("flags/\(file):\(position): error: 'f' defaultVariant must be the name of a variant"))
        #expect(message.contains("found \(found)"))
        #expect(loaded.flagErrors == loaded.diagnostics)
        let details = FlagEvaluator(definitions: loaded.definitions).details(forKeyNamed: "f", context: [:])
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
    }

    @Test("Quoted, the same names are variants: \"true\" in JSON and YAML, and YAML's plain on")
    func quotedNames() throws {
        let json =
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"true": 1, "off": 2}, "defaultVariant": "true"}}}"#
        let yaml = "flags:\n  g: { variants: { on: 1, off: 2 }, defaultVariant: on }\n"
        let loaded = loadDefinitions(["flags/a.json": json, "flags/b.yaml": yaml])
        #expect(loaded.diagnostics.isEmpty)
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        #expect(evaluator.details(forKeyNamed: "f", context: [:]).variant == "true")
        #expect(evaluator.details(forKeyNamed: "g", context: [:]).variant == "on")
    }
}
