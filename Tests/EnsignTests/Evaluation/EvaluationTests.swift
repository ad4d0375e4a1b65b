import Ensign
import EnsignJSON
import Foundation
import Testing

/// The targeting engine's tests; every suite is nested here so that
/// `swift test --filter Evaluation` selects them all.
enum EvaluationTests {}

extension EvaluationTests {
    /// Parses JSON text, failing the test on malformed input.
    static func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try JSONValue(jsonText: text)
    }

    /// Compiles a rule written as JSON text, with evaluators written as JSON text.
    static func rule(
        _ text: String, evaluators: [String: String] = [:], options: TargetingOptions = TargetingOptions()
    ) throws -> TargetingRule {
        try TargetingRule(
            compiling: json(text), evaluators: try evaluators.mapValues { try JSONValue(jsonText: $0) },
            options: options)
    }

    /// The problems found compiling a rule written as JSON text.
    static func problems(
        _ text: String, evaluators: [String: String] = [:], options: TargetingOptions = TargetingOptions()
    ) throws -> [TargetingCompileProblem] {
        TargetingRule.compile(
            try json(text), evaluators: try evaluators.mapValues { try JSONValue(jsonText: $0) }, options: options
        ).problems
    }

    /// Equality as JavaScript's `JSON.stringify` would see it: numbers compare by value whether
    /// they are integers or doubles.
    static func sameJSON(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return lhs.numericValue == rhs.numericValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { sameJSON($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { sameJSON(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }
}
