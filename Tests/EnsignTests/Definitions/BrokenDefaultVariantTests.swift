import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// A `defaultVariant` that names no variant: flagd's Go daemon refuses the whole file, its
/// Python core evaluates the flag and fails where an evaluation falls to the default (issue 37).
/// Ensign reports an error confined to the flag (`ensign validate` refuses the file) and, at run
/// time, evaluates like the Python core: targeting still serves its variants, and only the
/// default reads `GENERAL`. A defaultVariant that is not a string, which flagd's schema and
/// daemon refuse too, makes every evaluation of its flag `PARSE_ERROR`.
@Suite("A defaultVariant that names no variant is an error for validate and fails only where it is reached")
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

    @Test("The context loads; the flag reads its code default with ERROR, GENERAL and the position")
    func contextLoads() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.json", Self.definitions)
        let context = try unwatchedContext(directory.path, environment: "test")
        #expect(context.value(forKeyNamed: "checkout.pageSize") == 20)
        let details = context.details(for: FlagKey("checkout.newFlow", default: true))
        #expect(details.value == true)
        #expect(details.reason == .error)
        #expect(details.errorCode == .general)
        #expect(details.errorMessage == "defaultVariant 'of' is not among its variants (off, on) at \(file):4:87")
        #expect(context.loadDiagnostics.map(\.severity) == [.warning])
        let problem = try #require(context.status.flagProblems.first)
        #expect(problem.key == "checkout.newFlow")
        #expect(problem.message.contains("is served as flagd serves it: defaultVariant 'of'"))
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

    @Test("validate reports it as an error, and an evaluation that falls to the default reads GENERAL")
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
        #expect(details.errorCode == .general)
    }

    @Test("Targeting still serves the variants it names; a null result falls to the default and reads GENERAL")
    func targetingStillServes() throws {
        let definitions = #"""
            {"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "nope",
              "targeting": {"if": [{"==": [{"var": "plan"}, "pro"]}, "on", null]}}}}
            """#
        let loaded = loadDefinitions(["flags/app.json": definitions])
        #expect(loaded.flagErrors.count == 1)
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        let pro = evaluator.details(forKeyNamed: "f", context: ["plan": "pro"])
        #expect(pro.reason == .targetingMatch)
        #expect(pro.variant == "on")
        #expect(pro.value == true)
        let free = evaluator.details(forKeyNamed: "f", context: ["plan": "free"])
        #expect(free.reason == .error)
        #expect(free.errorCode == .general)
        #expect(free.errorMessage?.contains("defaultVariant 'nope' is not among its variants") == true)
        // Asked as another type, the variant targeting serves is a type mismatch, as in flagd.
        #expect(evaluator.details(forKeyNamed: "f", default: 0, context: ["plan": "pro"]).errorCode == .typeMismatch)
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
