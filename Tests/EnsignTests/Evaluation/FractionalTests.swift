import Ensign
import Testing

extension EvaluationTests {
    /// `fractional`, checked against the bucket assignments in flagd-testbed's
    /// `evaluator/gherkin/fractional.feature` (the rules below are that suite's flags).
    @Suite("fractional")
    struct FractionalTests {
        static let cards = """
            {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "user.name"}]},
              ["clubs", 25], ["diamonds", 25], ["hearts", 25], ["spades", 25]]}
            """
        static let sharedSeed = """
            {"fractional": [{"cat": ["shared-seed", {"var": "user.name"}]},
              ["clubs", 25], ["diamonds", 25], ["hearts", 25], ["spades", 25]]}
            """

        struct Case: Sendable, CustomTestStringConvertible {
            let hashing: FractionalHashing
            let rule: String
            let flagKey: String
            let name: String
            let expected: String
            var testDescription: String { "\(hashing) \(flagKey) user.name=\(name) → \(expected)" }
        }

        static let cases: [Case] =
            [
                ("jack", "spades"), ("queen", "clubs"), ("ten", "diamonds"), ("nine", "hearts"), ("3", "diamonds"),
            ].map { Case(hashing: .v1, rule: cards, flagKey: "fractional-flag", name: $0, expected: $1) }
            + [
                ("jack", "hearts"), ("queen", "spades"), ("ten", "clubs"), ("nine", "diamonds"), ("3", "clubs"),
            ].map { Case(hashing: .v2, rule: cards, flagKey: "fractional-flag", name: $0, expected: $1) }
            + [("jack", "hearts"), ("queen", "spades"), ("ten", "hearts"), ("nine", "diamonds")].map {
                Case(hashing: .v1, rule: sharedSeed, flagKey: "fractional-flag-A-shared-seed", name: $0, expected: $1)
            }
            + [("seven", "hearts"), ("eight", "diamonds"), ("nine", "clubs"), ("two", "spades")].map {
                Case(hashing: .v2, rule: sharedSeed, flagKey: "fractional-flag-B-shared-seed", name: $0, expected: $1)
            }

        @Test("A bucketing expression puts each subject in flagd's bucket", arguments: cases)
        func bucketsLikeFlagd(_ example: Case) throws {
            let rule = try EvaluationTests.rule(
                example.rule, options: TargetingOptions(fractionalHashing: example.hashing))
            let context: EvaluationContext = ["user": ["name": .string(example.name)]]
            #expect(rule.evaluate(context: context, flagKey: example.flagKey) == .string(example.expected))
        }

        @Test(
            "Without a bucketing expression, flag key + targeting key is hashed; a missing weight counts as 1",
            arguments: FractionalHashing.allCases)
        func defaultBucketingKey(_ hashing: FractionalHashing) throws {
            let rule = try EvaluationTests.rule(
                #"{"fractional": [["heads"], ["tails", 1]]}"#, options: TargetingOptions(fractionalHashing: hashing))
            let flagKey = "fractional-flag-shorthand"
            #expect(rule.evaluate(context: ["targetingKey": "jon@company.com"], flagKey: flagKey) == "heads")
            #expect(rule.evaluate(context: ["targetingKey": "jane@company.com"], flagKey: flagKey) == "tails")
        }

        @Test("Keys at the hash boundaries land on the right side of a 50/50 split (v2)")
        func hashEdgeCases() throws {
            let rule = try EvaluationTests.rule(
                #"{"fractional": [{"var": "targetingKey"}, ["lower", 50], ["upper", 50]]}"#)
            let expectations = [
                "ejOoVL": "lower", "bY9fO-": "lower", "SI7p-": "lower", "6LvT0": "upper", "ceQdGm": "upper",
            ]
            for (key, expected) in expectations {
                let context = EvaluationContext(targetingKey: key)
                #expect(
                    rule.evaluate(context: context, flagKey: "fractional-hash-edge-flag") == .string(expected), "\(key)"
                )
            }
        }

        @Test("A single bucket always wins")
        func singleBucket() throws {
            let rule = try EvaluationTests.rule(#"{"fractional": [["single", 1]]}"#)
            #expect(rule.evaluate(context: ["targetingKey": "some-targeting-key"], flagKey: "f") == "single")
        }

        @Test("Variant names and weights may be expressions")
        func nestedExpressions() throws {
            let variantIf = try EvaluationTests.rule(
                """
                {"fractional": [{"var": "targetingKey"},
                  [{"if": [{"==": [{"var": "tier"}, "premium"]}, "premium", "standard"]}, 50], ["standard", 50]]}
                """)
            let flag = "fractional-nested-if-flag"
            #expect(
                variantIf.evaluate(context: ["targetingKey": "jon@company.com", "tier": "premium"], flagKey: flag)
                    == "premium")
            #expect(
                variantIf.evaluate(context: ["targetingKey": "jon@company.com", "tier": "basic"], flagKey: flag)
                    == "standard")
            #expect(
                variantIf.evaluate(context: ["targetingKey": "user1", "tier": "premium"], flagKey: flag) == "standard")

            let variantVar = try EvaluationTests.rule(
                #"{"fractional": [{"var": "targetingKey"}, [{"var": "color"}, 50], ["blue", 50]]}"#)
            #expect(
                variantVar.evaluate(context: ["targetingKey": "jon@company.com", "color": "green"], flagKey: "f")
                    == "green")
            #expect(variantVar.evaluate(context: ["targetingKey": "user1", "color": "red"], flagKey: "f") == "blue")
            #expect(variantVar.evaluate(context: ["targetingKey": "jon@company.com"], flagKey: "f") == .null)

            let weightIf = try EvaluationTests.rule(
                """
                {"fractional": [{"var": "targetingKey"},
                  ["red", {"if": [{"==": [{"var": "tier"}, "premium"]}, 100, 0]}], ["blue", 10]]}
                """)
            for key in ["jon@company.com", "user1"] {
                #expect(
                    weightIf.evaluate(context: ["targetingKey": .string(key), "tier": "premium"], flagKey: "f") == "red"
                )
                #expect(
                    weightIf.evaluate(context: ["targetingKey": .string(key), "tier": "basic"], flagKey: "f") == "blue")
            }
        }

        @Test("Boolean variants make fractional usable as a condition")
        func asCondition() throws {
            let always = try EvaluationTests.rule(
                #"{"if": [{"fractional": [[false, 0], [true, 100]]}, "big", "small"]}"#)
            let never = try EvaluationTests.rule(
                #"{"if": [{"fractional": [[false, 100], [true, 0]]}, "big", "small"]}"#)
            let context: EvaluationContext = ["targetingKey": "some-targeting-key"]
            #expect(always.evaluate(context: context, flagKey: "fractional-as-condition-flag") == "big")
            #expect(never.evaluate(context: context, flagKey: "fractional-as-condition-false-flag") == "small")
        }

        @Test("No bucketing value and no targeting key evaluates to null")
        func missingBucketingKey() throws {
            let rule = try EvaluationTests.rule(#"{"fractional": [{"var": "missing_key"}, ["one", 50], ["two", 50]]}"#)
            #expect(rule.evaluate(context: .empty, flagKey: "fractional-null-bucket-key-flag") == .null)
            // The default key applies when the expression gives no string.
            #expect(rule.evaluate(context: ["targetingKey": "any-user"], flagKey: "f") != .null)
        }

        @Test("All-zero weights evaluate to null; negative weights count as zero")
        func degenerateWeights() throws {
            let zero = TargetingRule.compile(
                try EvaluationTests.json(#"{"fractional": [{"var": "targetingKey"}, ["one", 0], ["two", 0]]}"#))
            #expect(zero.rule?.evaluate(context: ["targetingKey": "any-user"], flagKey: "f") == .null)
            #expect(zero.problems.map(\.severity) == [.warning])

            let negative = try EvaluationTests.rule(
                #"{"fractional": [{"var": "targetingKey"}, ["one", -50], ["two", 100]]}"#)
            #expect(negative.evaluate(context: ["targetingKey": "any-user"], flagKey: "f") == "two")
        }

        @Test("Weights computed at evaluation time are validated then")
        func computedWeightsValidated() throws {
            let rule = try EvaluationTests.rule(#"{"fractional": [["a", {"var": "w"}], ["b", 1]]}"#)
            let base: EvaluationContext = ["targetingKey": "k"]
            var fractionalWeight = base
            fractionalWeight["w"] = 1.5
            #expect(rule.evaluate(context: fractionalWeight, flagKey: "f") == .null)
            var textWeight = base
            textWeight["w"] = "3"
            #expect(rule.evaluate(context: textWeight, flagKey: "f") == .null)
            var tooHeavy = base
            tooHeavy["w"] = .int(Int(Int32.max))
            #expect(rule.evaluate(context: tooHeavy, flagKey: "f") == .null)
            #expect(rule.evaluate(context: base, flagKey: "f") != .null)
        }

        @Test("Assignments follow the weights across many subjects", arguments: FractionalHashing.allCases)
        func distribution(_ hashing: FractionalHashing) throws {
            let rule = try EvaluationTests.rule(
                #"{"fractional": [["on", 25], ["off", 75]]}"#, options: TargetingOptions(fractionalHashing: hashing))
            var on = 0
            let subjects = 20_000
            for index in 0..<subjects
            where rule.evaluate(context: ["targetingKey": .string("user-\(index)")], flagKey: "rollout") == "on" {
                on += 1
            }
            let share = Double(on) / Double(subjects)
            #expect(abs(share - 0.25) < 0.015, "\(hashing): \(on) of \(subjects) on")
        }

        @Test("v1 and v2 bucket differently, and the same subject always gets the same answer")
        func versionsDifferButAreSticky() throws {
            let v1 = try EvaluationTests.rule(Self.cards, options: TargetingOptions(fractionalHashing: .v1))
            let v2 = try EvaluationTests.rule(Self.cards)
            let jack: EvaluationContext = ["user": ["name": "jack"]]
            #expect(v1.evaluate(context: jack, flagKey: "fractional-flag") == "spades")
            #expect(v2.evaluate(context: jack, flagKey: "fractional-flag") == "hearts")
            #expect(
                v2.evaluate(context: jack, flagKey: "fractional-flag")
                    == v2.evaluate(context: jack, flagKey: "fractional-flag"))
        }

        @Test("With plain JSON data, targetingKey and $flagd.flagKey come from the data")
        func plainData() throws {
            let rule = try EvaluationTests.rule(#"{"fractional": [["heads"], ["tails", 1]]}"#)
            let data = try EvaluationTests.json(
                #"{"targetingKey": "jane@company.com", "$flagd": {"flagKey": "fractional-flag-shorthand"}}"#)
            #expect(rule.evaluate(data: data) == "tails")
            #expect(
                rule.evaluate(data: ["targetingKey": "jon@company.com"], flagKey: "fractional-flag-shorthand")
                    == "heads")
        }
    }
}
