/// A compiled `var` whose path is a literal, split at compile time.
final class VariableExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let path: VariablePath
    /// The value when the path leads nowhere; `null` when absent.
    let fallback: Expression?

    init(path: VariablePath, fallback: Expression?) {
        self.path = path
        self.fallback = fallback
    }

    /// `var`: the value at the path, else the fallback, else `null`.
    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        guard let fallback else { return environment.lookUp(path, in: scope) ?? .null }
        // json-logic-js evaluates both arguments before looking anything up.
        let fallbackValue = try fallback.evaluate(in: scope, environment)
        return environment.lookUp(path, in: scope) ?? fallbackValue
    }
}

/// A compiled `var` whose path is computed at evaluation time.
final class ComputedVariableExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let path: Expression
    let fallback: Expression?

    init(path: Expression, fallback: Expression?) {
        self.path = path
        self.fallback = fallback
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        let key = try path.evaluate(in: scope, environment)
        let fallbackValue = try fallback?.evaluate(in: scope, environment)
        return environment.lookUp(VariablePath(key: key), in: scope) ?? fallbackValue ?? .null
    }
}
