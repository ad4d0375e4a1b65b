import Testing

@testable import Ensign

extension EvaluationTests {
    @Suite("Compile problems")
    struct CompileProblemTests {
        @Test("A wrong argument count is a warning at the operator, saying what flagd makes of it")
        func arity() throws {
            let problems = try EvaluationTests.problems(#"{"if": [{"in": [{"var": "country"}]}, "on", "off"]}"#)
            #expect(problems.count == 1)
            #expect(problems.first?.path == ["if", 0, "in"])
            #expect(problems.first?.severity == .warning)
            #expect(
                problems.first?.description
                    == "warning: targeting.if[0].in: 'in' needs a value to look for and where to look; with one it always evaluates to false"
            )
        }

        /// What an odd argument count gives, as flagd's evaluator reads it.
        enum Outcome: Sendable {
            case value(JSONValue)
            case failure
        }

        @Test(
            "Operators given too few or too many arguments compile with a warning and evaluate as flagd does",
            arguments: [
                (#"{"substr": []}"#, ["substr"], .failure),
                (#"{"substr": ["abc"]}"#, ["substr"], .failure),
                (#"{"%": [1]}"#, ["%"], .failure),
                (#"{"in": []}"#, ["in"], .failure),
                (#"{"missing_some": [1]}"#, ["missing_some"], .failure),
                (#"{"some": [[1, 2]]}"#, ["some"], .failure),
                (#"{"==": [1]}"#, ["=="], .value(false)),
                (#"{"!=": [1]}"#, ["!="], .value(true)),
                (#"{"<": [1, 2, 0, 5]}"#, ["<"], .value(true)),
                (#"{"!": [1, 2]}"#, ["!"], .value(false)),
                (#"{"max": []}"#, ["max"], .value(.null)),
                (#"{"and": []}"#, ["and"], .value(.null)),
                (#"{"var": ["a", 1, 2]}"#, ["var"], .value(.null)),
                (#"{"map": [[1, 2]]}"#, ["map"], .value([])),
                (#"{"reduce": [[1, 2], {"+": [{"var": "current"}, {"var": "accumulator"}]}]}"#, ["reduce"], .value(0)),
                (#"{"reduce": [[1], {"var": "current"}, 0, 1]}"#, ["reduce"], .value(1)),
            ] as [(String, [TargetingPathComponent], Outcome)])
        func arityWarnings(_ rule: String, _ path: [TargetingPathComponent], _ outcome: Outcome) throws {
            let compilation = TargetingRule.compile(try EvaluationTests.json(rule))
            #expect(compilation.problems.map(\.path) == [path])
            #expect(compilation.problems.map(\.severity) == [.warning])
            let result = try #require(compilation.rule).result(data: .null)
            switch outcome {
            case .value(let expected): #expect((try? result.get()) == expected)
            case .failure: #expect(throws: TargetingEvaluationError.self) { try result.get() }
            }
        }

        @Test(
            "An operand flagd cannot read as arguments is a warning, and fails where it is evaluated",
            arguments: [
                #"{"<": 5}"#, #"{"==": 1}"#, #"{"if": true}"#, #"{"and": {"var": "x"}}"#, #"{"cat": 5}"#,
                #"{"merge": null}"#,
                #"{"missing": 1}"#, #"{"var": true}"#, #"{"var": [1]}"#, #"{"some": 5}"#, #"{"+": [1, null]}"#,
            ])
        func loneOperandWarnings(_ rule: String) throws {
            let compilation = TargetingRule.compile(try EvaluationTests.json(rule))
            #expect(compilation.problems.map(\.severity) == [.warning])
            #expect(compilation.problems.first?.message.contains("the flag reads PARSE_ERROR") == true)
            #expect(throws: TargetingEvaluationError.self) { try #require(compilation.rule).result(data: .null).get() }
        }

        @Test("Lone operands flagd reads without failing compile to what flagd gives")
        func loneOperands() throws {
            #expect(try EvaluationTests.rule(#"{"===": 1}"#).evaluate(data: .null) == false)
            #expect(try EvaluationTests.rule(#"{"!==": 1}"#).evaluate(data: .null) == true)
            #expect(try EvaluationTests.rule(#"{"!": false}"#).evaluate(data: .null) == true)
            #expect(try EvaluationTests.rule(#"{"+": "3"}"#).evaluate(data: .null) == 3)
            #expect(try EvaluationTests.rule(#"{"max": {"var": "x"}}"#).evaluate(data: ["x": [1, 5, 2]]) == 5)
            #expect(try EvaluationTests.rule(#"{"!": {"var": "x"}}"#).evaluate(data: ["x": [0]]) == true)
        }

        @Test("An unknown operator is an error at its key, with a suggestion when one is close")
        func unknownOperator() throws {
            let problems = try EvaluationTests.problems(
                #"{"and": [{"==": [1, 1]}, {"startswith": [{"var": "id"}, "a"]}]}"#)
            #expect(problems.count == 1)
            #expect(problems.first?.path == ["and", 1, "startswith"])
            #expect(
                problems.first?.message.hasPrefix("unknown operator 'startswith'; did you mean 'starts_with'?") == true)
        }

        @Test("Every problem is reported, in rule order, not just the first")
        func allProblems() throws {
            let problems = try EvaluationTests.problems(
                """
                {"if": [
                  {"bogus": 1},
                  {"substr": []},
                  {"and": [{"$ref": "nope"}, {"fractional": [["a", "ten"]]}]},
                  {"starts_with": ["x"]}
                ]}
                """)
            #expect(
                problems.map(\.path) == [
                    ["if", 0, "bogus"], ["if", 1, "substr"], ["if", 2, "and", 0, "$ref"],
                    ["if", 2, "and", 1, "fractional", 0, 1], ["if", 3, "starts_with"],
                ])
            #expect(problems.map(\.severity) == [.error, .warning, .error, .warning, .warning])
            #expect(throws: TargetingCompileError.self) {
                try EvaluationTests.rule(#"{"if": [{"bogus": 1}, {"substr": []}]}"#)
            }
            let source = try EvaluationTests.json(#"{"if": [{"bogus": 1}, {"substr": []}]}"#)
            do throws(TargetingCompileError) {
                _ = try TargetingRule(compiling: source)
                Issue.record("a rule with errors compiled")
            } catch {
                #expect(error.problems.count == 2)
                #expect(error.errors.count == 1)
            }
        }

        @Test("Problems nested inside an unknown operator are still found")
        func problemsInsideUnknownOperator() throws {
            let problems = try EvaluationTests.problems(#"{"nope": [{"in": [1]}]}"#)
            #expect(problems.map(\.path) == [["nope"], ["nope", 0, "in"]])
        }

        @Test(
            "Malformed fractional rules compile with a warning at the offending part, since flagd evaluates them to null",
            arguments: [
                (#"{"fractional": []}"#, ["fractional"]),
                (#"{"fractional": "x"}"#, ["fractional"]),
                (#"{"fractional": [{"var": "email"}]}"#, ["fractional"]),
                (#"{"fractional": [["a", 50], "b"]}"#, ["fractional", 1]),
                (#"{"fractional": [["a", 50], []]}"#, ["fractional", 1]),
                (#"{"fractional": [["a", true]]}"#, ["fractional", 0, 1]),
                (#"{"fractional": [["a", 12.5], ["b", 87.5]]}"#, ["fractional", 0, 1]),
                (#"{"fractional": [[["a"], 1]]}"#, ["fractional", 0, 0]),
                (#"{"fractional": [7, ["a", 1]]}"#, ["fractional", 0]),
                (#"{"fractional": [["a", 3000000000]]}"#, ["fractional", 0, 1]),
                (#"{"fractional": [["a", 2000000000], ["b", 2000000000]]}"#, ["fractional"]),
            ] as [(String, [TargetingPathComponent])])
        func malformedFractional(_ rule: String, _ path: [TargetingPathComponent]) throws {
            let compilation = TargetingRule.compile(try EvaluationTests.json(rule))
            #expect(compilation.problems.allSatisfy { $0.severity == .warning })
            #expect(compilation.problems.map(\.path).first == path, "\(compilation.problems)")
            #expect(compilation.problems.first?.message.hasSuffix("always evaluates to null") == true)
            #expect(compilation.rule?.evaluate(context: ["targetingKey": "u1"], flagKey: "f") == .null)
        }

        @Test("v1 hashing accepts fractional weights with a warning, since it truncates them")
        func v1FractionalWeights() throws {
            let problems = try EvaluationTests.problems(
                #"{"fractional": [["a", 12.5], ["b", 87.5]]}"#, options: TargetingOptions(fractionalHashing: .v1))
            #expect(problems.map(\.severity) == [.warning, .warning])
        }

        @Test("Suspicious but valid fractional rules compile with warnings")
        func fractionalWarnings() throws {
            let constantKey = TargetingRule.compile(
                try EvaluationTests.json(#"{"fractional": ["everyone", ["a", 1], ["b", 1]]}"#))
            #expect(constantKey.rule != nil)
            #expect(constantKey.problems.map(\.path) == [["fractional", 0]])
            let extra = try EvaluationTests.problems(#"{"fractional": [["a", 1, "x"]]}"#)
            #expect(extra.map(\.path) == [["fractional", 0, 2]])
            #expect(extra.map(\.severity) == [.warning])
            let negative = try EvaluationTests.problems(#"{"fractional": [["a", -1], ["b", 1]]}"#)
            #expect(negative.map(\.severity) == [.warning])
        }

        @Test("Rules nested deeper than the limit are rejected instead of overflowing the stack")
        func depthLimit() {
            var rule: JSONValue = true
            for _ in 0..<400 { rule = ["!": rule] }
            let problems = TargetingRule.compile(rule).problems
            #expect(problems.count == 1)
            #expect(problems.first?.path.count == TargetingCompiler.maximumDepth)
        }

        @Test("Plain values in an array at the depth limit are past it, as any value there is")
        func arrayAtTheLimit() {
            func nested(_ levels: Int) -> JSONValue {
                var value: JSONValue = [1, "a"]
                for _ in 1..<levels { value = [value] }
                return value
            }
            #expect(TargetingRule.compile(nested(TargetingCompiler.maximumDepth - 1)).problems.isEmpty)
            let problems = TargetingRule.compile(nested(TargetingCompiler.maximumDepth)).problems
            #expect(problems.count == 2)
            #expect(problems.allSatisfy { $0.path.count == TargetingCompiler.maximumDepth })
        }

        @Test("Objects with other than one key are data, not operations")
        func objectLiterals() throws {
            let rule = try EvaluationTests.rule(#"{"if": [true, {"color": "red", "size": 2}, {}]}"#)
            #expect(rule.warnings.isEmpty)
            #expect(rule.evaluate(context: .empty, flagKey: "f") == ["color": "red", "size": 2])
        }
    }
}
