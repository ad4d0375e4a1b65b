import EnsignTestSupport
import Testing

@testable import Ensign

extension EvaluationTests {
    @Suite("Possible string results")
    struct PossibleResultsTests {
        @Test("if branches and fractional variants are listed with their paths; conditions are not")
        func branchesAndVariants() throws {
            let rule = try EvaluationTests.rule(
                """
                {"if": [{"in": [{"var": "country"}, ["FR", "BE"]]}, "on",
                  {"fractional": [["on", 25], ["off", 75]]}]}
                """)
            let results = rule.possibleStringResults
            #expect(results.map(\.value) == ["on", "on", "off"])
            #expect(
                results.map(\.path) == [["if", 1], ["if", 2, "fractional", 0, 0], ["if", 2, "fractional", 1, 0]])
            #expect(!rule.canReturnComputedStrings)
        }

        @Test("Every if in a chain, and every and/or operand, can be the result")
        func chainsAndLogic() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"var": "a"}, "one", {"var": "b"}, "two", {"or": ["three", {"and": [true, "four"]}]}]}"#)
            #expect(rule.possibleStringResults.map(\.value) == ["one", "two", "three", "four"])
        }

        @Test("Computed strings are flagged, not guessed; constant expressions are folded")
        func computedAndFolded() throws {
            let computed = try EvaluationTests.rule(#"{"if": [true, {"var": "variant"}, "off"]}"#)
            #expect(computed.possibleStringResults.map(\.value) == ["off"])
            #expect(computed.canReturnComputedStrings)

            let folded = try EvaluationTests.rule(#"{"if": [true, {"cat": ["o", "n"]}, null]}"#)
            #expect(folded.possibleStringResults.map(\.value) == ["on"])
            #expect(folded.possibleStringResults.first?.path == ["if", 1, "cat"])
            #expect(!folded.canReturnComputedStrings)

            let fallback = try EvaluationTests.rule(#"{"var": ["variant", "off"]}"#)
            #expect(fallback.possibleStringResults.map(\.value) == ["off"])
            #expect(fallback.canReturnComputedStrings)
        }

        @Test("Strings in conditions between the branches are not results, and the branches keep their order")
        func conditionsBetweenBranches() throws {
            let rule = try EvaluationTests.rule(
                #"{"if": [{"==": [{"var": "a"}, "x"]}, "one", {"==": [{"var": "b"}, "y"]}, "two", "three"]}"#)
            #expect(rule.possibleStringResults.map(\.value) == ["one", "two", "three"])
            #expect(rule.possibleStringResults.map(\.path) == [["if", 1], ["if", 3], ["if", 4]])
        }

        /// A random rule of `if`, `and`, `or`, `==`, `var`, strings and booleans.
        static func randomRule(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
            let words: [JSONValue] = ["on", "off", "x", "y", true, false]
            switch depth > 3 ? generator.next() % 2 : generator.next() % 6 {
            case 0: return words[Int(generator.next() % UInt64(words.count))]
            case 1: return ["var": .string(["a", "b"][Int(generator.next() % 2)])]
            case 2: return ["==": [randomRule(&generator, depth: depth + 1), randomRule(&generator, depth: depth + 1)]]
            case 3, 4:
                return [
                    "if": .array(
                        (0..<Int(1 + generator.next() % 5)).map { _ in randomRule(&generator, depth: depth + 1) })
                ]
            default:
                let name = generator.next() % 2 == 0 ? "and" : "or"
                return [
                    name: .array(
                        (0..<Int(1 + generator.next() % 3)).map { _ in randomRule(&generator, depth: depth + 1) })
                ]
            }
        }

        /// The results the rule can return, by reading its JSON: a string is its own result, an
        /// `if` returns its branches' (odd places, and a last one in an odd count), `and` and
        /// `or` any operand's; `var` and `==` compute theirs.
        static func referenceResults(_ rule: JSONValue, at path: [TargetingPathComponent]) -> [(
            String, [TargetingPathComponent]
        )] {
            switch rule {
            case .string(let text): return [(text, path)]
            case .object(let members):
                let (name, operand) = members.first!
                guard let operands = operand.arrayValue, name != "==", name != "var" else { return [] }
                return operands.indices.flatMap { index -> [(String, [TargetingPathComponent])] in
                    let isBranch =
                        name != "if" || index % 2 == 1 || (index == operands.count - 1 && operands.count % 2 == 1)
                    return isBranch ? referenceResults(operands[index], at: path + [.key(name), .index(index)]) : []
                }
            default: return []
            }
        }

        @Test("The listed results are a simple reading of the rule's JSON, on 3,000 random rules")
        func matchesReference() {
            var generator = SplitMix64(seed: 77)
            for _ in 0..<3_000 {
                let rule = Self.randomRule(&generator)
                guard let compiled = TargetingRule.compile(rule).rule else { continue }
                var expected: [(String, [TargetingPathComponent])] = []
                for result in Self.referenceResults(rule, at: []) where !expected.contains(where: { $0 == result }) {
                    expected.append(result)
                }
                let listed = compiled.possibleStringResults
                #expect(listed.map(\.value) == expected.map(\.0), "\(rule.jsonText)")
                #expect(listed.map(\.path) == expected.map(\.1), "\(rule.jsonText)")
            }
        }

        @Test("Non-string results such as booleans, numbers and comparisons list nothing")
        func nonStrings() throws {
            let rule = try EvaluationTests.rule(#"{"if": [{"==": [{"var": "a"}, "x"]}, true, 3]}"#)
            #expect(rule.possibleStringResults.isEmpty)
            #expect(!rule.canReturnComputedStrings)
        }
    }
}
