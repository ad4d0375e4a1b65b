import Ensign
import EnsignJSON
import Foundation
import Testing

extension EvaluationTests {
    /// The targeting rules of flagd-testbed's flag set, compiled as the flag loader will compile
    /// them. (The Gherkin scenarios themselves run in the evaluator suite's own runner.)
    /// Both tests read the testkit's flag file: without it, the suite is skipped and says why.
    @Suite(
        "flagd testkit targeting rules",
        .enabled(if: ConformanceData.hasFlagdTestkitFlags, Comment(rawValue: ConformanceData.flagdTestkitSkipReason)))
    struct FlagdTestkitRulesTests {
        static func flagSet() throws -> (flags: [String: JSONValue], evaluators: [String: JSONValue]) {
            let bytes = try Data(contentsOf: ConformanceData.flagdTestkitFlags)
            let document = try JSONValue(jsonBytes: Array(bytes))
            return (document["flags"]?.objectValue ?? [:], document["$evaluators"]?.objectValue ?? [:])
        }

        @Test("Every rule compiles, except the deliberate $ref to a missing evaluator")
        func everyRuleCompiles() throws {
            let (flags, evaluators) = try Self.flagSet()
            #expect(TargetingRule.checkEvaluators(evaluators).isEmpty)
            var compiled = 0
            for (key, flag) in flags.sorted(by: { $0.key < $1.key }) {
                guard let targeting = flag["targeting"] else { continue }
                let compilation = TargetingRule.compile(targeting, evaluators: evaluators)
                let errors = compilation.problems.filter { $0.severity == .error }
                if key == "ref-to-nonexistent-evaluator-flag" {
                    #expect(errors.map(\.path) == [["if", 0, "$ref"]])
                } else {
                    #expect(errors.isEmpty, "\(key): \(errors)")
                    compiled += 1
                }
            }
            #expect(compiled > 0)
        }

        @Test("Literal results of each rule name variants the flag defines")
        func resultsNameDefinedVariants() throws {
            let (flags, evaluators) = try Self.flagSet()
            for (key, flag) in flags {
                guard let targeting = flag["targeting"],
                    let rule = TargetingRule.compile(targeting, evaluators: evaluators).rule,
                    let variants = flag["variants"]?.objectValue
                else { continue }
                for result in rule.possibleStringResults {
                    #expect(variants[result.value] != nil, "\(key) can return '\(result.value)' at \(result.path)")
                }
            }
        }
    }
}
