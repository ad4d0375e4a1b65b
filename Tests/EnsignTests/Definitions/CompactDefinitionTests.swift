import EnsignYAML
import Testing

@testable import Ensign

@Suite("Definitions kept compactly after loading")
struct CompactDefinitionTests {
    @Test("A compiled rule reads back as written, unicode, numbers and all, with its position")
    func writtenRuleReadsBack() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": #"""
            version: 1
            flags:
              banner:
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "off"
                targeting:
                  if:
                    - in: [{ var: city }, ["Zürich", "東京", "quote \" and \\ slash", "tab\there", "true", "12", "null"]]
                    - "on"
                    - cat: [{ var: score }, 1.5e300, 0.1, -7, 12.0, 9007199254740993]
                    - "off"
                    - null
            """#
        ])
        #expect(loaded.diagnostics.isEmpty)
        let banner = try #require(loaded.definitions["banner"])
        let expected: JSONValue = [
            "if": [
                [
                    "in": [
                        ["var": "city"], ["Zürich", "東京", "quote \" and \\ slash", "tab\there", "true", "12", "null"],
                    ]
                ], "on",
                ["cat": [["var": "score"], .double(1.5e300), .double(0.1), -7, .double(12), 9_007_199_254_740_993]],
                "off",
                .null,
            ]
        ]
        #expect(banner.targeting?.value == expected)
        #expect(banner.targeting?.location == SourcePosition(file: "flags/app.yaml", line: 8, column: 7))
        #expect(banner.targetingLocation == banner.targeting?.location)
    }

    @Test("A rule with a double JSON cannot write exactly (an infinity, -0.0) is kept as a value")
    func inexactRuleKeptWhole() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": """
            version: 1
            flags:
              limit:
                type: double
                default: 1.0
                targeting: { if: [{ "<": [{ var: x }, .inf] }, -0.0, null] }
            """
        ])
        let limit = try #require(loaded.definitions["limit"])
        let rule = try #require(limit.targeting?.value["if"]?.arrayValue)
        #expect(rule.count == 3)
        #expect(rule[0]["<"]?.arrayValue?.last == .double(.infinity))
        let zero = try #require(rule[1].numericValue)
        #expect(zero == 0 && zero.sign == .minus)
    }

    @Test("A loaded definition's compiled rule evaluates as compiled, without its load-time findings")
    func ruleWithoutFindings() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": """
            version: 1
            flags:
              flow:
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "off"
                targeting: { if: [{ "==": [{ var: plan }, pro] }, "on", "off"] }
            """
        ])
        let flow = try #require(loaded.definitions["flow"])
        let kept = try #require(flow.compiledTargeting)
        let fresh = try TargetingRule(compiling: try #require(flow.targeting?.value))
        #expect(fresh.possibleStringResults.map(\.value) == ["on", "off"])
        #expect(kept.possibleStringResults.isEmpty && kept.canReturnComputedStrings && kept.warnings.isEmpty)
        for plan in ["pro", "free"] {
            #expect(
                kept.evaluate(context: ["plan": .string(plan)], flagKey: "flow")
                    == fresh.evaluate(context: ["plan": .string(plan)], flagKey: "flow"))
        }
    }

    @Test("Variants are found by their exact scalars, by scan for a few and by table for many")
    func variantLookup() {
        let few: FlagVariants = ["é": 1, "e\u{301}": 2]
        #expect(few["é"] == 1)
        #expect(few["e\u{301}"] == 2)
        #expect(few["x"] == nil)
        let many = FlagVariants((0..<12).map { (name: "v\($0)", value: JSONValue.int($0)) } + [(name: "é", value: 99)])
        #expect(many["v11"] == 11)
        #expect(many["é"] == 99)
        #expect(many["e\u{301}"] == nil)
        #expect(many.count == 13)
    }

    @Test("Environment values are looked up by name and listed in name order")
    func environmentValues() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": """
            version: 1
            flags:
              a: { default: false, environments: { staging: true, development: false } }
            """
        ])
        let values = try #require(loaded.definitions["a"]).environmentValues
        #expect(values.keys == ["development", "staging"])
        #expect(values["staging"]?.value == true)
        #expect(values["staging"]?.location == SourcePosition(file: "flags/app.yaml", line: 3, column: 49))
        #expect(values["production"] == nil)
        #expect(values.map(\.key) == ["development", "staging"])
    }
}
