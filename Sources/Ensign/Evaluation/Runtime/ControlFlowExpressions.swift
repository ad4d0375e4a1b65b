/// `if` / `?:`.
final class ConditionalExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let operands: [Expression]

    init(_ operands: [Expression]) {
        self.operands = operands
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        var index = 0
        while index + 1 < operands.count {
            if try operands[index].evaluate(in: scope, environment).isTruthy {
                return try operands[index + 1].evaluate(in: scope, environment)
            }
            index += 2
        }
        return index < operands.count ? try operands[index].evaluate(in: scope, environment) : .null
    }
}

/// `and` / `or`.
final class LogicalExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let operands: [Expression]
    /// `true` for `or` (stop at the first truthy operand), `false` for `and`.
    let stopsWhenTruthy: Bool

    init(_ operands: [Expression], stopsWhenTruthy: Bool) {
        self.operands = operands
        self.stopsWhenTruthy = stopsWhenTruthy
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        var last = JSONValue.null
        for index in operands.indices {
            last = try operands[index].evaluate(in: scope, environment)
            if last.isTruthy == stopsWhenTruthy { return last }
        }
        return last
    }
}
