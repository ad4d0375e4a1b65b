import Testing

@testable import Ensign

extension EvaluationTests {
    /// `in` as flagd's Go evaluator reads it (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “in”).
    @Suite("in")
    struct ContainsTests {
        @Test(
            "Every text contains the empty text, the empty text included",
            arguments: [
                (#"{"in": ["", ""]}"#, true), (#"{"in": ["", "a"]}"#, true), (#"{"in": ["a", ""]}"#, false),
                (#"{"in": ["Spring", "Springfield"]}"#, true), (#"{"in": ["i", "team"]}"#, false),
            ])
        func emptyText(_ rule: String, _ expected: Bool) throws {
            #expect(try EvaluationTests.rule(rule).result(data: .null).get() == .bool(expected))
        }

        @Test("In a flag, an empty attribute is found in an empty text")
        func inAFlag() throws {
            let flag = FlagdFlagFixture(targeting: #"{"if": [{"in": [{"var": "s"}, {"var": "t"}]}, "on", "off"]}"#)
            #expect(try flag.outcome(#"{"s": "", "t": ""}"#) == "true / on / TARGETING_MATCH / -")
            #expect(try flag.outcome(#"{"s": "x", "t": ""}"#) == "false / off / TARGETING_MATCH / -")
        }

        @Test(
            "Arrays: ranges, numeric needles and exact members, as flagd reads them",
            arguments: [
                (#"{"in": [1, [1, 2]]}"#, true), (#"{"in": ["1", [1, 2]]}"#, false),
                (#"{"in": [1, ["1", "2"]]}"#, true),
                (#"{"in": [5, [[1, 10]]]}"#, true), (#"{"in": [11, [[1, 10]]]}"#, false),
                (#"{"in": [null, [null]]}"#, true), (#"{"in": [true, [1]]}"#, false), (#"{"in": ["a", null]}"#, false),
                (#"{"in": ["a"]}"#, false),
            ])
        func arrays(_ rule: String, _ expected: Bool) throws {
            #expect(try EvaluationTests.rule(rule).result(data: .null).get() == .bool(expected))
        }

        @Test(
            "What flagd's evaluator cannot compare fails",
            arguments: [
                #"{"in": [1, "123"]}"#, #"{"in": [1, [true]]}"#, #"{"in": [1, [null]]}"#, #"{"in": [[1], [[1]]]}"#,
            ])
        func failures(_ rule: String) throws {
            #expect(throws: TargetingEvaluationError.self) { try EvaluationTests.rule(rule).result(data: .null).get() }
        }
    }
}
