import Testing

@testable import Ensign

/// Flag data is matched by Unicode scalars, as flagd matches it, not by Swift's canonical
/// equivalence (issue 18, item 2): "é" (U+00E9) and "e\u{301}" (e + combining acute) differ.
@Suite("Flag data is matched by Unicode scalars, not canonical equivalence")
struct ExactMatchingTests {
    static let composed = "\u{E9}t\u{E9}"  // été, NFC
    static let decomposed = "e\u{301}te\u{301}"  // été, NFD

    @Test("Swift calls them equal; JSONValue does not, and hashes them apart")
    func values() {
        #expect(Self.composed == Self.decomposed)  // the reason for all this
        #expect(JSONValue.string(Self.composed) != .string(Self.decomposed))
        #expect(Set<JSONValue>([.string(Self.composed), .string(Self.decomposed)]).count == 2)
        #expect(JSONValue.array([.string(Self.composed)]) == [.string(Self.composed)])
    }

    @Test("Two variants that differ only by normalisation are two variants, each looked up exactly")
    func variants() throws {
        let yaml = loadDefinitions([
            "flags/app.yaml": """
            flags:
              f:
                variants: { "\u{E9}": 1, "e\u{301}": 2 }
                defaultVariant: "e\u{301}"
            """
        ])
        #expect(yaml.diagnostics.isEmpty, "\(yaml.diagnostics)")
        let json = loadDefinitions([
            "flags/app.json":
                #"{"flags": {"f": {"variants": {"\u00e9": 1, "e\u0301": 2}, "defaultVariant": "e\u0301"}}}"#
        ])
        #expect(json.diagnostics.isEmpty, "\(json.diagnostics)")
        for loaded in [yaml, json] {
            let flag = try #require(loaded.definitions["f"])
            #expect(flag.variants.count == 2)
            #expect(flag.variants["\u{E9}"] == 1)
            #expect(flag.variants["e\u{301}"] == 2)
            #expect(FlagEvaluator(definitions: loaded.definitions).details(forKeyNamed: "f").value == 2)
        }
    }

    @Test("Two flags whose keys differ only by normalisation are two flags")
    func keys() throws {
        let loaded = loadDefinitions([
            "flags/app.json": #"{"flags": {"caf\u00e9": {"default": 1}, "cafe\u0301": {"default": 2}}}"#
        ])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.definitions["caf\u{E9}"]?.defaultValue?.value == 1)
        #expect(loaded.definitions["cafe\u{301}"]?.defaultValue?.value == 2)
        let context = try AppContext(definitions: #"{"flags": {"caf\u00e9": {"default": 1}}}"#)
        #expect(context.details(forKeyNamed: "cafe\u{301}").errorCode == .flagNotFound)
        #expect(context.details(forKeyNamed: "caf\u{E9}").value == 1)
    }

    @Test("A rule's result names a variant only with the same scalars; == compares scalars")
    func ruleResults() {
        let loaded = loadDefinitions([
            "flags/app.json": #"""
            {"flags": {
              "named": {"variants": {"\u00e9t\u00e9": "summer", "off": "none"}, "defaultVariant": "off",
                        "targeting": {"var": "season"}},
              "compared": {"variants": {"on": true, "off": false}, "defaultVariant": "off",
                           "targeting": {"if": [{"==": [{"var": "season"}, "\u00e9t\u00e9"]}, "on", "off"]}}
            }}
            """#
        ])
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        let nfc: EvaluationContext = ["season": .string(Self.composed)]
        let nfd: EvaluationContext = ["season": .string(Self.decomposed)]
        #expect(evaluator.details(forKeyNamed: "named", context: nfc).value == "summer")
        #expect(evaluator.details(forKeyNamed: "named", context: nfd).reason == .error)
        #expect(evaluator.details(forKeyNamed: "compared", context: nfc).value == true)
        #expect(evaluator.details(forKeyNamed: "compared", context: nfd).value == false)
    }
}
