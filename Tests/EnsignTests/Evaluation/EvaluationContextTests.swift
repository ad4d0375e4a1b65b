import Ensign
import Testing

extension EvaluationTests {
    @Suite("Evaluation context")
    struct EvaluationContextTests {
        @Test("A string targetingKey member becomes the targeting key")
        func targetingKeyFromJSON() throws {
            let context = EvaluationContext(
                json: try EvaluationTests.json(#"{"targetingKey": "user-1", "country": "FR"}"#))
            #expect(context.targetingKey == "user-1")
            #expect(context.attributes == ["country": "FR"])
            #expect(context.jsonValue == ["targetingKey": "user-1", "country": "FR"])

            let literal: EvaluationContext = ["targetingKey": "user-1", "country": "FR"]
            #expect(literal == context)

            let numeric = EvaluationContext(json: ["targetingKey": 42])
            #expect(numeric.targetingKey == nil)
            #expect(numeric["targetingKey"] == 42)
            #expect(EvaluationContext(json: [1, 2]) == .empty)
        }

        @Test("Rules read targetingKey, $flagd.flagKey and $flagd.timestamp")
        func injectedProperties() throws {
            let rule = try EvaluationTests.rule(
                #"{"cat": [{"var": "targetingKey"}, "|", {"var": "$flagd.flagKey"}, "|", {"var": "$flagd.timestamp"}]}"#
            )
            let value = rule.evaluate(context: ["targetingKey": "u1"], flagKey: "my-flag", timestamp: 1_700_000_000)
            #expect(value == "u1|my-flag|1700000000")
            let whole = try EvaluationTests.rule(#"{"var": "$flagd"}"#)
            #expect(whole.evaluate(context: .empty, flagKey: "k", timestamp: 5) == ["flagKey": "k", "timestamp": 5])
        }

        @Test("Without a given timestamp, $flagd.timestamp is the current unix time")
        func currentTimestamp() throws {
            let rule = try EvaluationTests.rule(#"{">": [{"var": "$flagd.timestamp"}, 1700000000]}"#)
            #expect(rule.evaluate(context: .empty, flagKey: "f") == true)
        }

        @Test("The targeting key matches exactly, as in flagd-testbed's targeting.feature")
        func targetingKeyRule() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"==": [{"var": "targetingKey"}, "5c3d8535-f81a-4478-a6d3-afaa4d51199e"]}, "hit", null]}"#)
            #expect(
                rule.evaluate(context: ["targetingKey": "5c3d8535-f81a-4478-a6d3-afaa4d51199e"], flagKey: "f") == "hit")
            #expect(
                rule.evaluate(context: ["targetingKey": "f20bd32d-703b-48b6-bc8e-79d53c85134a"], flagKey: "f") == .null)
            #expect(rule.evaluate(context: .empty, flagKey: "f") == .null)
        }

        @Test("Nested objects and arrays are reachable with dotted paths and indexes")
        func nestedValues() throws {
            let context: EvaluationContext = [
                "user": ["name": "ada", "roles": ["admin", "dev"], "address": ["country": "FR"]],
                "scores": [3, 5.5],
            ]
            let cases: [(String, JSONValue)] = [
                (#"{"var": "user.name"}"#, "ada"),
                (#"{"var": "user.roles.1"}"#, "dev"),
                (#"{"var": "user.roles.01"}"#, "dev"),  // flagd reads "01" as index 1
                (#"{"var": "user.address.country"}"#, "FR"),
                (#"{"var": "scores.1"}"#, 5.5),
                (#"{"var": ["user.address.zip", "none"]}"#, "none"),
                (#"{"in": ["admin", {"var": "user.roles"}]}"#, true),
                (#"{"var": "user.name.first"}"#, .null),
            ]
            for (text, expected) in cases {
                #expect(try EvaluationTests.rule(text).evaluate(context: context, flagKey: "f") == expected, "\(text)")
            }
        }

        @Test("Context values of every type compare as JsonLogic does")
        func valueTypes() throws {
            let rule = try EvaluationTests.rule(#"{"==": [{"var": "v"}, {"var": "w"}]}"#)
            let pairs: [(JSONValue, JSONValue, Bool)] = [
                (1, 1.0, true), ("1", 1, true), (true, 1, true), (false, "", true), (.null, .null, true),
                (.null, 0, false), ("abc", "abc", true), ([1], 1, true), (["a": 1], ["a": 1], false),
            ]
            for (v, w, expected) in pairs {
                #expect(rule.evaluate(context: ["v": v, "w": w], flagKey: "f") == .bool(expected), "\(v) == \(w)")
            }
        }

        @Test("var with an empty path is the whole context, as flagd builds it")
        func wholeContext() throws {
            let rule = try EvaluationTests.rule(#"{"var": ""}"#)
            let value = rule.evaluate(context: ["targetingKey": "u", "a": 1], flagKey: "f", timestamp: 9)
            #expect(value == ["targetingKey": "u", "a": 1, "$flagd": ["flagKey": "f", "timestamp": 9]])
        }

        @Test("The sample targeted rule picks variants by country, plan and bucket")
        func sampleRule() throws {
            let rule = try EvaluationTests.rule(
                """
                {"if": [{"and": [{"in": [{"var": "country"}, ["FR", "BE"]]}, {"==": [{"var": "plan"}, "pro"]}]},
                  {"fractional": [["on", 25], ["off", 75]]}, null]}
                """)
            #expect(
                rule.evaluate(context: ["targetingKey": "u", "country": "DE", "plan": "pro"], flagKey: "f") == .null)
            #expect(
                rule.evaluate(context: ["targetingKey": "u", "country": "FR", "plan": "free"], flagKey: "f") == .null)
            let variant = rule.evaluate(context: ["targetingKey": "u", "country": "BE", "plan": "pro"], flagKey: "f")
            #expect(variant == "on" || variant == "off")
            #expect(rule.evaluate(context: ["country": "BE", "plan": "pro"], flagKey: "f") == .null)
        }

        @Test("Quantifiers over nothing hold for none; failures are reported, never traps")
        func failuresAreReported() throws {
            let rules: [(String, JSONValue)] = [
                (#"{"all": [{"var": "missing"}, true]}"#, false),
                (#"{"some": [null, true]}"#, false),
                (#"{"if": [{"none": [{"var": "x"}, true]}, "a", "b"]}"#, "a"),
            ]
            for (text, expected) in rules {
                #expect(try EvaluationTests.rule(text).evaluate(context: .empty, flagKey: "f") == expected, "\(text)")
            }
            let arithmetic = try EvaluationTests.rule(#"{"+": [{"var": "a"}, 9223372036854775807, 1e308, 1e308]}"#)
            #expect(arithmetic.evaluate(context: ["a": .int(.max)], flagKey: "f") == .double(.infinity))
            #expect(throws: TargetingEvaluationError.self) {
                try arithmetic.result(context: ["a": .int(.max)], flagKey: "f").get()
            }
            let substring = try EvaluationTests.rule(#"{"substr": [{"var": "s"}, {"var": "i"}, {"var": "n"}]}"#)
            #expect(substring.evaluate(context: ["s": "abc", "i": 1e300, "n": -1e300], flagKey: "f") == "abc")
            #expect(substring.evaluate(context: ["s": "abc", "i": -1e300, "n": 1e300], flagKey: "f") == "abc")
        }
    }
}
