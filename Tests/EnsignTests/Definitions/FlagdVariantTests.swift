import Testing

@testable import Ensign

/// Variants read as flagd reads them (issue 18): only the variant an evaluation chooses is
/// checked against the type asked for, and an empty `defaultVariant` means no default.
@Suite("Variants as flagd reads them")
struct FlagdVariantTests {
    static let mixed = #"""
        {"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": 1}, "defaultVariant": "on",
                         "targeting": {"if": [{"var": "pick"}, "off"]}}}}
        """#

    @Test("Variants of mixed types load with a warning; the flag takes its default variant's type")
    func mixedTypesLoad() throws {
        let loaded = loadDefinitions(["flags/app.json": Self.mixed])
        #expect(loaded.diagnostics.map(\.severity) == [.warning])
        #expect(loaded.diagnostics.first?.message.contains("it is a bool flag (from its default variant)") == true)
        let flag = try #require(loaded.definitions["f"])
        #expect(flag.type == .bool)
        #expect(flag.variants["off"] == 1)
    }

    @Test("A typed read that chooses a variant of another type gets TYPE_MISMATCH; the default variant serves")
    func chosenVariantIsChecked() {
        let evaluator = FlagEvaluator(definitions: loadDefinitions(["flags/app.json": Self.mixed]).definitions)
        #expect(evaluator.details(forKeyNamed: "f", default: false).value == true)
        let chosen = evaluator.details(forKeyNamed: "f", default: false, context: ["pick": true])
        #expect(chosen.value == false)
        #expect(chosen.errorCode == .typeMismatch)
        #expect(evaluator.details(forKeyNamed: "f", default: 0, context: ["pick": true]).value == 1)
    }

    @Test("A declared type still checks every variant")
    func declaredTypeChecks() {
        let loaded = loadDefinitions([
            "flags/app.yaml": "flags:\n  f: { type: bool, variants: { on: true, off: 1 }, defaultVariant: on }\n"
        ])
        #expect(loaded.diagnostics.contains { $0.isError })
    }

    @Test("An empty defaultVariant means no default, as in flagd: the code default with DEFAULT")
    func emptyDefaultVariant() {
        let loaded = loadDefinitions([
            "flags/app.json":
                #"{"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "": false}, "defaultVariant": ""}}}"#
        ])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let details = FlagEvaluator(definitions: loaded.definitions).details(forKeyNamed: "f", default: true)
        #expect(details.value == true)
        #expect(details.reason == .defaultValue)
        #expect(details.errorCode == nil)
        #expect(details.variant == nil)
    }
}
