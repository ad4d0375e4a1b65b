import Testing

@testable import Ensign

/// No static strictness: a rule flagd evaluates loads and evaluates as flagd's Go daemon does,
/// and what flagd's evaluator cannot evaluate fails only where an evaluation reaches it
/// (`Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “Lazy evaluation and errors”). Expected
/// outcomes were recorded from flagd's Go evaluator, for flag `f` = {on: true, off: false},
/// default `off`.
@Suite("Rules load as flagd loads them and fail only where they are evaluated")
struct LazyEvaluationTests {
    typealias Case = FlagdFlagFixture.Case

    @Test(
        "Rules a strict compiler would refuse load and evaluate as flagd does",
        arguments: [
            Case(
                #"{"if": [false, {"fractional": [["on", 12.5], ["off", 87.5]]}, "off"]}"#, #"{"targetingKey": "u1"}"#,
                "false / off / TARGETING_MATCH / -"),
            Case(
                #"{"if": [true, {"fractional": [["on", 12.5], ["off", 87.5]]}, "off"]}"#, #"{"targetingKey": "u1"}"#,
                "false / off / DEFAULT / -"),
            Case(
                #"{"fractional": [["on", "50"], ["off", "50"]]}"#, #"{"targetingKey": "u1"}"#,
                "false / off / DEFAULT / -"),
            Case(#"{"if": [{"==": ["x"]}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
            // false names no variant.
            Case(#"{"==": ["x"]}"#, "- / - / ERROR / GENERAL"),
            Case(#"{"if": [{"!": [false, true]}, "on", "off"]}"#, "true / on / TARGETING_MATCH / -"),
            Case(#"{"fractional": [1.0]}"#, #"{"targetingKey": "u1"}"#, "false / off / DEFAULT / -"),
            Case(#"{"fractional": [[]]}"#, #"{"targetingKey": "u1"}"#, "false / off / DEFAULT / -"),
            // Three operands are a between: 3 > 2 > 1, but not 3 > 2 > 5.
            Case(#"{"if": [{">": [3, 2, 1]}, "on", "off"]}"#, "true / on / TARGETING_MATCH / -"),
            Case(#"{"if": [{">": [3, 2, 5]}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
            Case(#"{"max": []}"#, "false / off / DEFAULT / -"),
            Case(#"{"if": [{"max": []}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
            Case(#"{"if": [{"some": [[], {"var": ""}]}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
        ])
    func evaluatesAsFlagd(_ example: Case) throws {
        try FlagdFlagFixture.expectLoadsAndEvaluates(example)
    }

    @Test(
        "What flagd's evaluator cannot evaluate reads PARSE_ERROR",
        arguments: [
            Case(#"{"if": [{"<": 5}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"+": [1, null]}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"cat": [true, "x"]}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"substr": ["abc"]}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"in": []}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"some": [[1, 2]]}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": [{"reduce": [[1], {"var": "current"}, null]}, "on", "off"]}"#, "- / - / ERROR / PARSE_ERROR"),
            Case(#"{"if": {"var": "x"}}"#, "- / - / ERROR / PARSE_ERROR"),
            // A result JSON cannot represent: flagd cannot encode +Inf.
            Case(#"{"/": [1, 0]}"#, "- / - / ERROR / PARSE_ERROR"),
        ])
    func failsAsFlagd(_ example: Case) throws {
        try FlagdFlagFixture.expectLoadsAndEvaluates(example)
    }

    @Test(
        "A part that cannot be evaluated fails only when an evaluation reaches it",
        arguments: [
            Case(#"{"if": [false, {"<": 5}, "off"]}"#, "false / off / TARGETING_MATCH / -"),
            Case(#"{"if": [true, "on", {"+": [null]}]}"#, "true / on / TARGETING_MATCH / -"),
            Case(#"{"if": [{"and": [false, {"<": 5}]}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
            // NaN used, not returned: no failure.
            Case(#"{"if": [{"==": [{"%": [1, 0]}, 0]}, "on", "off"]}"#, "false / off / TARGETING_MATCH / -"),
            Case(Self.betaRule, #"{"beta": false}"#, "false / off / TARGETING_MATCH / -"),
            Case(Self.betaRule, #"{"beta": true, "n": 5}"#, "true / on / TARGETING_MATCH / -"),
            Case(Self.betaRule, #"{"beta": true}"#, "- / - / ERROR / PARSE_ERROR"),
        ])
    func failsLazily(_ example: Case) throws {
        #expect(try FlagdFlagFixture(targeting: example.targeting).outcome(example.context) == example.expected)
    }

    static let betaRule =
        #"{"if": [{"var": "beta"}, {"if": [{">": [{"+": [{"var": "n"}, 1]}, 1]}, "on", "off"]}, "off"]}"#

    @Test("A failed evaluation's message names the operator and points at the rule")
    func failureMessage() throws {
        let details = try FlagdFlagFixture(targeting: Self.betaRule).details(#"{"beta": true}"#)
        #expect(details.errorMessage == "the targeting rule failed: '+' needs numbers, not null")
        #expect(details.source.layer == .targeting)
    }

    @Test("An unknown operator is a load error, but at run time fails only where an evaluation reaches it")
    func unknownOperator() throws {
        // flagd's evaluators fail on it only where it is evaluated (issue 37); validate still refuses it.
        let flag = FlagdFlagFixture(targeting: #"{"if": [{"var": "x"}, {"foo": [1]}, "on"]}"#)
        #expect(flag.result.flagErrors.count == 1)
        #expect(flag.result.flagErrors.first?.message.contains("unknown operator 'foo'") == true)
        #expect(try flag.outcome() == "true / on / TARGETING_MATCH / -")
        let reached = try flag.details(#"{"x": true}"#)
        #expect(reached.errorCode == .parseError)
        #expect(reached.errorMessage?.hasPrefix("the targeting rule failed: unknown operator 'foo'") == true)
        #expect(reached.errorMessage?.contains("the rule's errors: ") == true)
    }

    @Test("A $ref to no evaluator, or one that is not a name, fails only where reached")
    func unresolvedReferences() throws {
        for targeting in [
            #"{"if": [{"var": "x"}, {"$ref": "nowhere"}, "on"]}"#, #"{"if": [{"var": "x"}, {"$ref": 7}, "on"]}"#,
        ] {
            let flag = FlagdFlagFixture(targeting: targeting)
            #expect(flag.result.flagErrors.count == 1, "\(targeting)")
            #expect(try flag.outcome() == "true / on / TARGETING_MATCH / -", "\(targeting)")
            #expect(try flag.details(#"{"x": true}"#).errorCode == .parseError, "\(targeting)")
        }
    }

    @Test("result(context:) tells a failure from null; evaluate(context:) reads both as null")
    func resultTellsFailureFromNull() throws {
        let rule = try EvaluationTests.rule(#"{"if": [{"var": "n"}, {"-": [{"var": "n"}]}, null]}"#)
        #expect(try rule.result(context: ["n": 2], flagKey: "f").get() == -2)
        #expect(try rule.result(context: .empty, flagKey: "f").get() == .null)
        #expect(throws: TargetingEvaluationError.self) { try rule.result(context: ["n": true], flagKey: "f").get() }
        #expect(rule.evaluate(context: ["n": true], flagKey: "f") == .null)
        let infinite = try EvaluationTests.rule(#"{"/": [1, 0]}"#)
        #expect(infinite.evaluate(data: .null) == .double(.infinity))
        #expect(throws: TargetingEvaluationError.self) { try infinite.result(data: .null).get() }
    }
}
