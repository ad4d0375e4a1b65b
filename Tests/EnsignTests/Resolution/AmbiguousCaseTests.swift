import Testing

@testable import Ensign

/// The cases where flagd's references disagree, decided by its Go daemon
/// (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`: “var paths and other ambiguous cases”,
/// “substr”, “Numbers and int reads”; expected values recorded from flagd's Go evaluator).
@Suite("Ambiguous cases are decided as flagd's Go daemon decides them")
struct AmbiguousCaseTests {
    static let tags: JSONValue = ["tags": ["a", "b"], "empty": [], "name": "abc"]

    @Test(
        "An array component is the number it reads as: tags.length is tags[0] (a Go quirk)",
        arguments: [
            ("tags.length", "a"), ("tags.x", "a"), ("tags.01", "b"), ("tags.1", "b"), ("tags.1e0", "b"),
            ("tags.-1", .null), ("tags.2", .null), ("tags.Inf", .null), ("empty.length", .null),
            ("name.length", .null), ("name.0", .null),
        ] as [(String, JSONValue)])
    func arrayComponents(_ path: String, _ expected: JSONValue) throws {
        let rule = try EvaluationTests.rule(#"{"var": "\#(path)"}"#)
        #expect(rule.evaluate(data: Self.tags) == expected)
    }

    @Test("A flag comparing tags.length with a count sees the first tag, as flagd does")
    func lengthInAFlag() throws {
        let flag = FlagdFlagFixture(targeting: #"{"if": [{"==": [{"var": "tags.length"}, 2]}, "on", "off"]}"#)
        #expect(try flag.outcome(#"{"tags": ["a", "b"]}"#) == "false / off / TARGETING_MATCH / -")
        #expect(try flag.outcome(#"{"tags": [2, 7]}"#) == "true / on / TARGETING_MATCH / -")
    }

    @Test(
        "var reads paths as flagd does: a null value takes the fallback, empty components are skipped",
        arguments: [
            (#"{"var": ["x", "d"]}"#, #"{"x": null}"#, "d"), (#"{"var": ["x", "d"]}"#, #"{"x": false}"#, false),
            (#"{"var": "a..b"}"#, #"{"a": {"b": 1}}"#, 1), (#"{"var": null}"#, #"{"a": 1}"#, .null),
            (#"{"var": null}"#, "5", 5), (#"{"var": "."}"#, #"{"a": 1}"#, ["a": 1]),
            (#"{"var": 1e21}"#, #"{"1000000000000000000000": "big"}"#, "big"), (#"{"missing": [null]}"#, "{}", [.null]),
        ] as [(String, String, JSONValue)])
    func paths(_ rule: String, _ data: String, _ expected: JSONValue) throws {
        #expect(try EvaluationTests.rule(rule).result(data: EvaluationTests.json(data)).get() == expected)
    }

    @Test(
        "substr counts Unicode scalars, with flagd's rules out of range",
        arguments: [
            (#"["héllo", 1, 3]"#, "éll"), (#"["a😀b", 1, 1]"#, "😀"), (#"["a😀b", 2]"#, "b"), (#"["a😀b", -2]"#, "😀b"),
            (#"["héllo", -3]"#, "llo"), (#"["héllo", -3, -1]"#, "ll"), (#"["abc", 5]"#, "abc"), (#"["abc", 3]"#, ""),
            (#"["abc", -5]"#, "abc"), (#"["abc", 1, 10]"#, "bc"), (#"[123, 1]"#, "23"), (#"["abc", "1"]"#, "bc"),
            (#"["abc", 1.7]"#, "bc"), (#"["abcdef", 1, 2, 3]"#, "bcdef"), (#"["abc", 1, "-1"]"#, "b"),
            (#"["e\u0301te\u0301", 1, 2]"#, "\u{301}t"),
        ] as [(String, String)])
    func substring(_ arguments: String, _ expected: String) throws {
        let result = try EvaluationTests.rule(#"{"substr": \#(arguments)}"#).result(data: .null).get()
        #expect(result == .string(expected))
    }

    @Test(
        "substr fails where flagd's does: an end before the start, no start, a boolean text, a null position",
        arguments: [#"["abc", 2, -2]"#, #"["abc", 1, -5]"#, #"["abc"]"#, #"[true, 1]"#, #"["abc", 1, null]"#])
    func substringFailures(_ arguments: String) throws {
        let rule = try EvaluationTests.rule(#"{"substr": \#(arguments)}"#)
        #expect(throws: TargetingEvaluationError.self) { try rule.result(data: .null).get() }
    }

    @Test("An int flag reads a whole variant value such as 2.0 as 2; 2.5 is TYPE_MISMATCH")
    func wholeDoubles() throws {
        let variants = #"{"a": 2.0, "b": 2.5}"#
        let whole = FlagdFlagFixture(targeting: nil, variants: variants, defaultVariant: #""a""#)
        let two = whole.evaluator.details(forKeyNamed: "f", default: 0)
        #expect(two.value == 2)
        #expect(two.variant == "a")
        #expect(two.reason == .staticValue)
        // flagd's Go daemon truncates 2.5 to 2; Ensign does not read a fraction as an int.
        let fraction = FlagdFlagFixture(targeting: nil, variants: variants, defaultVariant: #""b""#)
        let mismatch = fraction.evaluator.details(forKeyNamed: "f", default: 0)
        #expect(mismatch.value == 0)
        #expect(mismatch.errorCode == .typeMismatch)
        let targeted = FlagdFlagFixture(targeting: #""b""#, variants: variants, defaultVariant: #""a""#)
        #expect(targeted.evaluator.details(forKeyNamed: "f", default: 0).errorCode == .typeMismatch)
        let targetedWhole = FlagdFlagFixture(targeting: #""a""#, variants: variants, defaultVariant: #""b""#)
        #expect(targetedWhole.evaluator.details(forKeyNamed: "f", default: 0).value == 2)
    }

    @Test(
        "The targeting member: absent and {} are STATIC, null is DEFAULT, other values are results",
        arguments: [
            (nil, "false / off / STATIC / -"), ("{}", "false / off / STATIC / -"),
            ("null", "false / off / DEFAULT / -"),
            ("false", "- / - / ERROR / GENERAL"), ("true", "- / - / ERROR / GENERAL"),
            (#""on""#, "true / on / TARGETING_MATCH / -"), ("[]", "- / - / ERROR / GENERAL"),
            ("0", "- / - / ERROR / GENERAL"), (#"["on"]"#, "- / - / ERROR / GENERAL"),
        ] as [(String?, String)])
    func targetingMember(_ targeting: String?, _ expected: String) throws {
        let flag = FlagdFlagFixture(targeting: targeting)
        #expect(flag.result.flagErrors.isEmpty)
        #expect(try flag.outcome() == expected)
    }

    @Test("targeting: false selects a variant named \"false\" when there is one")
    func falseVariant() throws {
        let flag = FlagdFlagFixture(
            targeting: "false", variants: #"{"true": true, "false": false}"#, defaultVariant: #""true""#)
        #expect(try flag.outcome() == "false / false / TARGETING_MATCH / -")
    }

    @Test("In YAML, an empty or null targeting member is a rule that is null: DEFAULT")
    func yamlNullTargeting() throws {
        for targeting in ["targeting:", "targeting: null", "targeting: ~"] {
            let loaded = DefinitionLoader().loadDefinitions(from: [
                ConfigSource(
                    name: "flags.yaml",
                    text: """
                        flags:
                          f:
                            variants: { "on": true, "off": false }
                            defaultVariant: "off"
                            \(targeting)
                        """)
            ])
            let details = FlagEvaluator(definitions: loaded.definitions).details(forKeyNamed: "f")
            #expect(details.reason == .defaultValue, "\(targeting)")
            #expect(details.variant == "off", "\(targeting)")
        }
    }
}
