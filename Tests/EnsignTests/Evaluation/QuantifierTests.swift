import Testing

@testable import Ensign

extension EvaluationTests {
    /// `some`, `all` and `none` read their collection as flagd's Go evaluator does
    /// (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “Quantifiers”; expected values recorded
    /// from flagd's Go evaluator).
    @Suite("some, all and none")
    struct QuantifierTests {
        static func rule(_ quantifier: String) -> String {
            #"{"\#(quantifier)": [{"var": "x"}, {"==": [{"var": ""}, "a"]}]}"#
        }

        @Test(
            "Over null, a missing var or an empty value they are as over an empty array: some and all false, none true",
            arguments: [
                "{}", #"{"x": null}"#, #"{"x": ""}"#, #"{"x": {}}"#, #"{"x": []}"#, #"{"x": 0}"#, #"{"x": false}"#,
            ])
        func overNothing(_ data: String) throws {
            let data = try EvaluationTests.json(data)
            #expect(try EvaluationTests.rule(Self.rule("some")).result(data: data).get() == false)
            #expect(try EvaluationTests.rule(Self.rule("all")).result(data: data).get() == false)
            #expect(try EvaluationTests.rule(Self.rule("none")).result(data: data).get() == true)
        }

        @Test(
            "A string is never iterated character by character: a non-empty string, object or number fails",
            arguments: [#"{"x": "abc"}"#, #"{"x": "a"}"#, #"{"x": {"a": "a"}}"#, #"{"x": 5}"#, #"{"x": true}"#])
        func overOtherValues(_ data: String) throws {
            let data = try EvaluationTests.json(data)
            for quantifier in ["some", "all", "none"] {
                let result = try EvaluationTests.rule(Self.rule(quantifier)).result(data: data)
                #expect(throws: TargetingEvaluationError.self, "\(quantifier) with \(data.jsonText)") {
                    try result.get()
                }
            }
        }

        @Test("A literal string or number in the rule is no collection at all, with a warning")
        func literalNonArrays() throws {
            let compilation = TargetingRule.compile(
                try EvaluationTests.json(#"{"some": ["abc", {"==": [{"var": ""}, "a"]}]}"#))
            #expect(compilation.problems.map(\.severity) == [.warning])
            #expect(compilation.rule?.evaluate(data: .null) == false)
            #expect(
                try EvaluationTests.rule(#"{"none": ["abc", {"==": [{"var": ""}, "a"]}]}"#).evaluate(data: .null)
                    == true)
            #expect(try EvaluationTests.rule(#"{"all": [5, {"var": ""}]}"#).evaluate(data: .null) == false)
        }

        @Test("Over arrays they test each element")
        func overArrays() throws {
            let data: JSONValue = ["x": ["a", "b"]]
            #expect(try EvaluationTests.rule(Self.rule("some")).result(data: data).get() == true)
            #expect(try EvaluationTests.rule(Self.rule("all")).result(data: data).get() == false)
            #expect(try EvaluationTests.rule(Self.rule("none")).result(data: data).get() == false)
            #expect(try EvaluationTests.rule(Self.rule("all")).result(data: ["x": ["a"]]).get() == true)
        }

        @Test("In a flag: a missing collection is no match, a string is PARSE_ERROR")
        func inAFlag() throws {
            let flag = FlagdFlagFixture(
                targeting: #"{"if": [{"some": [{"var": "x"}, {"==": [{"var": ""}, "a"]}]}, "on", "off"]}"#)
            #expect(try flag.outcome() == "false / off / TARGETING_MATCH / -")
            #expect(try flag.outcome(#"{"x": ["a"]}"#) == "true / on / TARGETING_MATCH / -")
            #expect(try flag.outcome(#"{"x": "abc"}"#) == "- / - / ERROR / PARSE_ERROR")
            #expect(
                try flag.details(#"{"x": "abc"}"#).errorMessage
                    == "the targeting rule failed: 'some' needs an array, not \"abc\"")
        }
    }
}
