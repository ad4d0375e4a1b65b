/// The operators evaluated as plain functions of their (already evaluated) operands.
enum Operator: Sendable, Hashable {
    case looselyEqual, strictlyEqual, notLooselyEqual, notStrictlyEqual
    case greater, greaterOrEqual, less, lessOrEqual
    case not, truthy
    case remainder, add, multiply, subtract, divide, maximum, minimum
    case concatenate, substring, contains, merge, missing, missingSome, log
    case startsWith, endsWith
}

/// An operator applied to evaluated operands.
final class OperationExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let operation: Operator
    let operands: [Expression]

    init(_ operation: Operator, _ operands: [Expression]) {
        self.operation = operation
        self.operands = operands
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        try operation.apply(to: operands, in: scope, environment)
    }
}

extension [Expression] {
    /// The value of operand `index`, or `nil` (JavaScript's `undefined`) when it was not given.
    @inline(__always)
    func value(at index: Int, in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue?
    {
        // `.none`, not `nil`: JSONValue is itself expressible by `nil` (as `.null`).
        guard index < count else { return .none }
        return try self[index].evaluate(in: scope, environment)
    }
}
