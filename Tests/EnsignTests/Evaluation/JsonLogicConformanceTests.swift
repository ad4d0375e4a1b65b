import Ensign
import EnsignJSON
import Foundation
import Testing

extension EvaluationTests {
    /// One `[rule, data, expected]` row of json-logic-js's test suite.
    struct JsonLogicCase: Sendable, CustomTestStringConvertible {
        let number: Int
        let section: String
        let rule: JSONValue
        let data: JSONValue
        let expected: JSONValue

        var testDescription: String { "#\(number) \(rule.jsonText) with \(data.jsonText)" }

        /// Every case in the suite; section headers (strings) label the cases after them.
        static func all() -> [JsonLogicCase] {
            guard ConformanceData.hasJSONLogicTests,
                let bytes = try? Data(contentsOf: ConformanceData.jsonLogicTests),
                case .array(let rows)? = try? JSONValue(jsonBytes: Array(bytes))
            else { return [] }
            var cases: [JsonLogicCase] = []
            var section = ""
            for row in rows {
                switch row {
                case .string(let header):
                    section = header
                case .array(let triple) where triple.count == 3:
                    cases.append(
                        JsonLogicCase(
                            number: cases.count + 1, section: section, rule: triple[0], data: triple[1],
                            expected: triple[2]))
                default:
                    continue
                }
            }
            return cases
        }
    }

    @Suite("JsonLogic conformance (json-logic-js tests.json)")
    struct JsonLogicConformanceTests {
        // The data is shared, not vendored: a fresh clone without ../shared/conformance skips
        // these tests (with the reason below) instead of failing.
        @Test(
            "Each json-logic-js case evaluates to its expected value",
            .enabled(if: ConformanceData.hasJSONLogicTests, Comment(rawValue: ConformanceData.jsonLogicSkipReason)),
            arguments: JsonLogicCase.all())
        func evaluatesLikeTheReferenceImplementation(_ row: JsonLogicCase) {
            let compilation = TargetingRule.compile(row.rule)
            guard let rule = compilation.rule else {
                Issue.record(
                    """
                    [\(row.section)] case \(row.number) did not compile
                      rule:     \(row.rule.jsonText)
                      problems: \(compilation.problems.map(\.description).joined(separator: "; "))
                    """)
                return
            }
            let actual = rule.evaluate(data: row.data)
            #expect(
                EvaluationTests.sameJSON(actual, row.expected),
                """
                [\(row.section)] case \(row.number)
                  rule:     \(row.rule.jsonText)
                  data:     \(row.data.jsonText)
                  expected: \(row.expected.jsonText)
                  actual:   \(actual.jsonText)
                """)
        }

        @Test(
            "The suite is complete: 290 cases",
            .enabled(if: ConformanceData.hasJSONLogicTests, Comment(rawValue: ConformanceData.jsonLogicSkipReason)))
        func suiteIsComplete() {
            #expect(JsonLogicCase.all().count == 290)
        }
    }
}
