import Ensign
import Testing

extension EvaluationTests {
    @Suite("$evaluators and $ref")
    struct EvaluatorReferenceTests {
        static let evaluators = [
            "is_ballmer": #"{"==": ["ballmer@macrosoft.com", {"var": ["email"]}]}"#,
            "is_staff": #"{"ends_with": [{"var": "email"}, "@macrosoft.com"]}"#,
            "staff_or_beta": #"{"or": [{"$ref": "is_staff"}, {"var": "beta"}]}"#,
        ]

        @Test("A $ref is replaced by the evaluator's rule")
        func inlinesEvaluator() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"$ref": "is_ballmer"}, "hi", "bye"]}"#, evaluators: Self.evaluators)
            #expect(rule.evaluate(context: ["email": "ballmer@macrosoft.com"], flagKey: "f") == "hi")
            #expect(rule.evaluate(context: ["email": "user@example.com"], flagKey: "f") == "bye")
        }

        @Test("Evaluators may refer to other evaluators")
        func nestedReferences() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"$ref": "staff_or_beta"}, "on", "off"]}"#, evaluators: Self.evaluators)
            #expect(rule.evaluate(context: ["email": "dev@macrosoft.com"], flagKey: "f") == "on")
            #expect(rule.evaluate(context: ["email": "a@b.c", "beta": true], flagKey: "f") == "on")
            #expect(rule.evaluate(context: ["email": "a@b.c"], flagKey: "f") == "off")
        }

        @Test("A $ref to an undefined evaluator is an error at the $ref, with a suggestion")
        func unknownEvaluator() throws {
            let problems = try EvaluationTests.problems(
                #"{"if": [{"$ref": "is_balmer"}, "hit", "miss"]}"#, evaluators: Self.evaluators)
            #expect(problems.count == 1)
            #expect(problems.first?.severity == .error)
            #expect(problems.first?.path == ["if", 0, "$ref"])
            #expect(problems.first?.message.contains("did you mean 'is_ballmer'?") == true)
            #expect(throws: TargetingCompileError.self) {
                try EvaluationTests.rule(#"{"$ref": "nonexistent_evaluator"}"#)
            }
        }

        @Test("Cycles are errors, reported inside the evaluator that closes them")
        func cycles() throws {
            let evaluators = [
                "a": #"{"and": [true, {"$ref": "b"}]}"#,
                "b": #"{"or": [false, {"$ref": "a"}]}"#,
                "self": #"{"!": {"$ref": "self"}}"#,
            ]
            let mutual = try EvaluationTests.problems(#"{"if": [{"$ref": "a"}, "x", "y"]}"#, evaluators: evaluators)
            #expect(mutual.count == 1)
            #expect(mutual.first?.evaluatorName == "b")
            #expect(mutual.first?.path == ["or", 1, "$ref"])
            #expect(mutual.first?.message.contains("a → b → a") == true)

            let selfReference = try EvaluationTests.problems(#"{"$ref": "self"}"#, evaluators: evaluators)
            #expect(selfReference.map(\.path) == [["!", "$ref"]])
            #expect(selfReference.first?.evaluatorName == "self")
        }

        @Test("Problems inside an evaluator are located relative to it, and reported once")
        func problemsInsideEvaluators() throws {
            let evaluators = ["broken": #"{"in": [{"var": "country"}]}"#]
            let problems = try EvaluationTests.problems(
                #"{"or": [{"$ref": "broken"}, {"$ref": "broken"}]}"#, evaluators: evaluators)
            #expect(problems.count == 1)
            #expect(problems.first?.evaluatorName == "broken")
            #expect(problems.first?.path == ["in"])
            #expect(problems.first?.pathDescription == "$evaluators.broken.in")
        }

        @Test("checkEvaluators reports problems in evaluators no flag uses")
        func checksAllEvaluators() throws {
            let evaluators = [
                "fine": try EvaluationTests.json(#"{"==": [{"var": "a"}, 1]}"#),
                "typo": try EvaluationTests.json(#"{"strats_with": [{"var": "a"}, "x"]}"#),
            ]
            let problems = TargetingRule.checkEvaluators(evaluators)
            #expect(problems.count == 1)
            #expect(problems.first?.evaluatorName == "typo")
            #expect(problems.first?.path == ["strats_with"])
            #expect(problems.first?.message.contains("did you mean 'starts_with'?") == true)
        }

        @Test("Literal strings returned by an evaluator are results located inside it")
        func stringResultsThroughReferences() throws {
            let rule = try EvaluationTests.rule(
                #"{"$ref": "pick"}"#, evaluators: ["pick": #"{"if": [{"var": "vip"}, "gold", "silver"]}"#])
            #expect(rule.possibleStringResults.map(\.value) == ["gold", "silver"])
            #expect(rule.possibleStringResults.allSatisfy { $0.evaluatorName == "pick" })
            #expect(rule.possibleStringResults.first?.path == ["if", 1])
        }

        @Test("An evaluator referenced many times lists its results once, in order", arguments: [2, 9])
        func repeatedReferences(count: Int) throws {
            // Two results a reference: 4 results go through the small path, 18 through the set.
            let references = Array(repeating: #"{"$ref": "pick"}"#, count: count).joined(separator: ", ")
            let rule = try EvaluationTests.rule(
                #"{"or": [\#(references)]}"#, evaluators: ["pick": #"{"if": [{"var": "vip"}, "gold", "silver"]}"#])
            #expect(rule.possibleStringResults.map(\.value) == ["gold", "silver"])
            #expect(rule.possibleStringResults.map(\.path) == [["if", 1], ["if", 2]])
        }
    }
}
