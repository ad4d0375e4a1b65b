import Testing

@testable import Ensign

/// `fractional`'s arguments read as flagd's Go evaluator reads them (flagd bbb05d4,
/// `fractional.go`; `Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “Fractional arguments and
/// bucketing”). The expected outcomes were recorded from flagd's Go evaluator, for flag `f` =
/// {on: true, off: false}, default `off`.
@Suite("fractional reads its arguments as flagd's Go evaluator does")
struct FractionalArgumentTests {
    typealias Case = FlagdFlagFixture.Case

    static let byAge = #"{"fractional": [{"var": "age"}, ["on", 50], ["off", 50]]}"#
    static let halves = #"[["on", 50], ["off", 50]]"#

    static func fractional(_ arguments: String) -> String { #"{"fractional": \#(arguments)}"# }

    /// The case most of these are: `fractional(arguments)` for the targeting key "u1".
    static func forU1(_ arguments: String, _ expected: String) -> Case {
        Case(fractional(arguments), #"{"targetingKey": "u1"}"#, expected)
    }

    @Test(
        "A bucketing value that is not a string is read as a bucket; a missing one falls back to the targeting key",
        arguments: [
            Case(byAge, #"{"age": 42, "targetingKey": "u1"}"#, "false / off / DEFAULT / -"),
            Case(byAge, #"{"age": true, "targetingKey": "u1"}"#, "false / off / DEFAULT / -"),
            Case(byAge, #"{"age": {"a": 1}, "targetingKey": "u1"}"#, "false / off / DEFAULT / -"),
            Case(byAge, #"{"age": 42}"#, "false / off / DEFAULT / -"),
            // An array is a bucket: [1, 2] is variant 1 with weight 2, and flag key + "u1" picks "on".
            Case(byAge, #"{"age": [1, 2], "targetingKey": "u1"}"#, "true / on / TARGETING_MATCH / -"),
            Case(byAge, #"{"age": ["on", 2], "targetingKey": "u1"}"#, "true / on / TARGETING_MATCH / -"),
            Case(byAge, #"{"targetingKey": "u1"}"#, "true / on / TARGETING_MATCH / -"),
            Case(byAge, #"{"age": null, "targetingKey": "u1"}"#, "true / on / TARGETING_MATCH / -"),
            Case(byAge, "{}", "false / off / DEFAULT / -"),
            // A string is the key as it is, without the flag key: "42" lands on "off".
            Case(byAge, #"{"age": "42", "targetingKey": "u1"}"#, "false / off / TARGETING_MATCH / -"),
            forU1(#"["", ["on", 50], ["off", 50]]"#, "true / on / TARGETING_MATCH / -"),
            forU1(#"[true, ["on", 1]]"#, "false / off / DEFAULT / -"),
            forU1(#"[null, ["on"]]"#, "true / on / TARGETING_MATCH / -"),
        ])
    func bucketingValue(_ example: Case) throws {
        #expect(try FlagdFlagFixture(targeting: example.targeting).outcome(example.context) == example.expected)
    }

    @Test(
        "Without a bucketing value the key is flag key + targeting key, and an absent, empty or non-string targeting key gives null",
        arguments: [
            forU1(halves, "true / on / TARGETING_MATCH / -"),
            Case(fractional(halves), #"{"targetingKey": "u2"}"#, "false / off / TARGETING_MATCH / -"),
            Case(fractional(halves), #"{"targetingKey": ""}"#, "false / off / DEFAULT / -"),
            Case(fractional(halves), #"{"targetingKey": 5}"#, "false / off / DEFAULT / -"),
            Case(fractional(halves), "{}", "false / off / DEFAULT / -"),
        ])
    func targetingKey(_ example: Case) throws {
        #expect(try FlagdFlagFixture(targeting: example.targeting).outcome(example.context) == example.expected)
    }

    @Test(
        "Weights: whole floats, null as 1 and extra elements are accepted, negatives count 0; anything else gives null",
        arguments: [
            forU1(#"[["on", 50.0], ["off", 50.0]]"#, "true / on / TARGETING_MATCH / -"),
            forU1(#"[["on", null], ["off", 1]]"#, "true / on / TARGETING_MATCH / -"),
            forU1(#"[["on", 50, 1], ["off", 50]]"#, "true / on / TARGETING_MATCH / -"),
            forU1(#"[["on", -50], ["off", 100]]"#, "false / off / TARGETING_MATCH / -"),
            forU1(#"[["on", 12.5], ["off", 87.5]]"#, "false / off / DEFAULT / -"),
            forU1(#"[["on", "50"], ["off", "50"]]"#, "false / off / DEFAULT / -"),
            forU1(#"[["on", 0], ["off", 0]]"#, "false / off / DEFAULT / -"),
            forU1(#"[["on", 2147483647], ["off", 1]]"#, "false / off / DEFAULT / -"),
            forU1(#"[["on", -1e30], ["off", 1]]"#, "false / off / DEFAULT / -"),
            Case(
                fractional(#"[["on", {"var": "w"}], ["off", 1]]"#), #"{"targetingKey": "u1", "w": 50.0}"#,
                "true / on / TARGETING_MATCH / -"),
        ])
    func weights(_ example: Case) throws {
        #expect(try FlagdFlagFixture(targeting: example.targeting).outcome(example.context) == example.expected)
    }

    @Test(
        "A malformed fractional loads and evaluates to null; any bad bucket spoils the whole of it",
        arguments: [
            forU1("[1.0]", "false / off / DEFAULT / -"),
            forU1("[[]]", "false / off / DEFAULT / -"),
            forU1("[]", "false / off / DEFAULT / -"),
            forU1(#""x""#, "false / off / DEFAULT / -"),
            Case(
                fractional(#"[["on", 50], ["off", 50], {"var": "x"}]"#), #"{"targetingKey": "u1", "x": 5}"#,
                "false / off / DEFAULT / -"),
            Case(
                fractional(#"[["on", 50], [{"var": "o"}, 50]]"#), #"{"targetingKey": "u1", "o": {"a": 1}}"#,
                "false / off / DEFAULT / -"),
            // An operation in place of the list is evaluated, and its value is the list.
            Case(
                #"{"fractional": {"var": "b"}}"#, #"{"targetingKey": "u1", "b": [["on", 1]]}"#,
                "true / on / TARGETING_MATCH / -"),
        ])
    func malformed(_ example: Case) throws {
        try FlagdFlagFixture.expectLoadsAndEvaluates(example)
    }

    @Test("v1 hashing reads the arguments the same way, and still truncates fractional weights")
    func v1() throws {
        let options = TargetingOptions(fractionalHashing: .v1)
        let byAge = try EvaluationTests.rule(Self.byAge, options: options)
        #expect(byAge.evaluate(context: ["age": 42, "targetingKey": "u1"], flagKey: "f") == .null)
        #expect(byAge.evaluate(context: ["targetingKey": "u1"], flagKey: "f") != .null)
        let truncated = try EvaluationTests.rule(Self.fractional(#"[["on", 12.5], ["off", 87.5]]"#), options: options)
        #expect(truncated.evaluate(context: ["targetingKey": "u1"], flagKey: "f") != .null)
    }
}
