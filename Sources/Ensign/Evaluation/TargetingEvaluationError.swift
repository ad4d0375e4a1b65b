/// Why evaluating a targeting rule failed, where flagd's evaluator fails too: an operation it
/// cannot carry out (`{"+": [1, null]}`, `{"<": 5}`, `some` over a string, …) or a result JSON
/// cannot represent (`{"/": [1, 0]}` is infinite). A flag reads `PARSE_ERROR` for such an
/// evaluation, and the message says what failed.
///
/// Only the parts of a rule that an evaluation reaches can fail: a branch of `if` that is not
/// taken never does.
///
/// ```swift
/// switch rule.result(context: ["age": 42], flagKey: "f") {
/// case .success(let value): print(value.jsonText)
/// case .failure(let error): print("PARSE_ERROR:", error.message)
/// }
/// ```
package struct TargetingEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, naming the operator (`'+' needs numbers, not null`).
    package let message: String

    /// Creates an error with `message`.
    package init(message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
