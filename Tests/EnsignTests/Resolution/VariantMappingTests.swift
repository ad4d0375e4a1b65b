import Testing

@testable import Ensign

/// A targeting result selects a variant as flagd's Go daemon reads it (`evaluateVariant`;
/// `Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “Variant mapping”): the result written as
/// Go's JSON encoder writes it, every `"` removed, then looked up by exact name. Expected
/// outcomes were recorded from flagd's Go evaluator, for a string flag whose variants are named
/// after the results.
@Suite("A targeting result selects a variant as flagd's daemon reads it")
struct VariantMappingTests {
    static let variants = #"""
        {"on": "on-val", "off": "off-val", "true": "T", "false": "F", "1": "one", "2": "two", "1.5": "onehalf",
         "null": "nullstr", "a<b": "lt", "a&b": "amp", "say \"hi\"": "q", "a\\b": "bs", "[on]": "arr",
         "{a:1}": "obj", "é": "e-acute", "line\nbreak": "nl", "1e+21": "big", "-0": "negzero", "0": "zero",
         " on": "space-on"}
        """#

    struct Case: Sendable, CustomTestStringConvertible {
        let targeting: String
        let expected: String
        var testDescription: String { "\(targeting) → \(expected)" }
    }

    static func branch(_ result: String) -> String { #"{"if": [true, \#(result), "off"]}"# }

    @Test(
        "Strings, booleans, numbers, arrays and objects name the variant spelled as their JSON without quotes",
        arguments: [
            Case(targeting: branch(#""on""#), expected: #""on-val" / on / TARGETING_MATCH / -"#),
            Case(targeting: branch("true"), expected: #""T" / true / TARGETING_MATCH / -"#),
            Case(targeting: branch("false"), expected: #""F" / false / TARGETING_MATCH / -"#),
            Case(targeting: branch("1"), expected: #""one" / 1 / TARGETING_MATCH / -"#),
            Case(targeting: #"{"*": [0.5, 2]}"#, expected: #""one" / 1 / TARGETING_MATCH / -"#),
            Case(targeting: branch("1.5"), expected: #""onehalf" / 1.5 / TARGETING_MATCH / -"#),
            Case(targeting: #"{"+": [1, 1]}"#, expected: #""two" / 2 / TARGETING_MATCH / -"#),
            Case(targeting: branch("1e21"), expected: #""big" / 1e+21 / TARGETING_MATCH / -"#),
            Case(targeting: #"{"*": [-1, 0]}"#, expected: #""negzero" / -0 / TARGETING_MATCH / -"#),
            Case(targeting: branch("0"), expected: #""zero" / 0 / TARGETING_MATCH / -"#),
            // Ensign reads a written -0 as the integer 0 (flagd's Go reader keeps it negative).
            Case(targeting: branch("-0"), expected: #""zero" / 0 / TARGETING_MATCH / -"#),
            Case(targeting: branch(#""null""#), expected: #""nullstr" / null / TARGETING_MATCH / -"#),
            Case(targeting: branch(#"["on"]"#), expected: #""arr" / [on] / TARGETING_MATCH / -"#),
            Case(targeting: #"{"var": "o"}"#, expected: #""obj" / {a:1} / TARGETING_MATCH / -"#),
            Case(targeting: branch(#""é""#), expected: #""e-acute" / é / TARGETING_MATCH / -"#),
        ])
    func namesVariants(_ example: Case) throws {
        let flag = FlagdFlagFixture(targeting: example.targeting, variants: Self.variants)
        #expect(try flag.outcome(#"{"o": {"a": 1}}"#) == example.expected)
    }

    @Test(
        "A result naming no variant is ERROR with GENERAL, even where a variant is spelled like the result",
        arguments: [
            branch(#""nope""#), branch(#""a<b""#), branch(#""a&b""#), branch(#""say \"hi\"""#), branch(#""a\\b""#),
            branch(#""line\nbreak""#),
        ])
    func namesNoVariant(_ targeting: String) throws {
        let flag = FlagdFlagFixture(targeting: targeting, variants: Self.variants)
        #expect(try flag.outcome() == "- / - / ERROR / GENERAL")
    }

    @Test("A string Go escapes names the variant spelled with the escape")
    func escapedNames() throws {
        let lessThan = FlagdFlagFixture(targeting: Self.branch(#""a<b""#), variants: Self.variants)
        #expect(try lessThan.outcome() == "- / - / ERROR / GENERAL")
        #expect(try lessThan.details().errorMessage?.contains(#"(the name 'a\u003cb')"#) == true)
        let variants = #"{"a\\u003cb": "escaped-lt", "say \\hi\\": "escaped-quotes", "off": "off-val"}"#
        #expect(
            try FlagdFlagFixture(targeting: Self.branch(#""a<b""#), variants: variants).outcome()
                == #""escaped-lt" / a\u003cb / TARGETING_MATCH / -"#)
        #expect(
            try FlagdFlagFixture(targeting: Self.branch(#""say \"hi\"""#), variants: variants).outcome()
                == #""escaped-quotes" / say \hi\ / TARGETING_MATCH / -"#)
    }

    @Test("Loading warns of a literal result flagd reads as another name")
    func loadingReportsEscapedResults() throws {
        let flag = FlagdFlagFixture(targeting: Self.branch(#""a<b""#), variants: #"{"a<b": "lt", "off": "off-val"}"#)
        let messages = flag.result.diagnostics.map(\.message)
        #expect(
            messages.contains {
                $0.hasPrefix(
                    #"'f' targeting can return 'a<b' (which flagd reads as 'a\u003cb'), which is not one of its variants"#
                )
            }, "\(messages)")
    }

    @Test("null selects no variant: the default variant with DEFAULT, or the code default without one")
    func nullResult() throws {
        let flag = FlagdFlagFixture(targeting: #"{"if": [false, "on"]}"#, variants: Self.variants)
        #expect(try flag.outcome() == #""off-val" / off / DEFAULT / -"#)
        let noDefault = FlagdFlagFixture(
            targeting: #"{"if": [false, "on"]}"#, variants: Self.variants, defaultVariant: nil)
        #expect(try noDefault.outcome() == "- / - / DEFAULT / -")
        let noMatch = FlagdFlagFixture(targeting: #""nope""#, variants: Self.variants, defaultVariant: nil)
        #expect(try noMatch.outcome() == "- / - / ERROR / GENERAL")
    }

    @Test("variantName(for:) writes the result as Go's JSON encoder does, without quotes")
    func variantNames() {
        #expect(TargetingRule.variantName(for: "on") == "on")
        #expect(TargetingRule.variantName(for: true) == "true")
        #expect(TargetingRule.variantName(for: 2) == "2")
        #expect(TargetingRule.variantName(for: 2.0) == "2")
        #expect(TargetingRule.variantName(for: 0.5) == "0.5")
        #expect(TargetingRule.variantName(for: 1e-7) == "1e-7")
        #expect(TargetingRule.variantName(for: .double(-0.0)) == "-0")
        #expect(TargetingRule.variantName(for: .null) == nil)
        #expect(TargetingRule.variantName(for: .double(.nan)) == nil)
        #expect(TargetingRule.variantName(for: ["on", 1, .null, true]) == "[on,1,null,true]")
        #expect(
            TargetingRule.variantName(for: ["b": ["c": "x"], "a": [1], "é": 1, "Z": 0]) == "{Z:0,a:[1],b:{c:x},é:1}")
        #expect(TargetingRule.variantName(for: "tab\there\u{8}\u{1F}\u{7F}") == "tab\\there\\b\\u001f\u{7F}")
        #expect(TargetingRule.variantName(for: "a\u{2028}b") == "a\\u2028b")
        #expect(TargetingRule.variantName(for: " on") == " on")
    }
}
