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
        // Both arguments are evaluated before anything is looked up.
        let fallbackValue = try fallback.evaluate(in: scope, environment)
        return environment.lookUp(path, in: scope) ?? fallbackValue
    }
}

/// A compiled `var` whose argument is computed at evaluation time: a path, or a
/// `[path, fallback]` list, as flagd reads it (see ``EvaluationEnvironment/lookUp(key:in:for:)``).
final class ComputedVariableExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let key: Expression

    init(key: Expression) {
        self.key = key
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        try environment.lookUp(key: try key.evaluate(in: scope, environment), in: scope, for: "var") ?? .null
    }
}

extension EvaluationEnvironment {
    /// What `var` (and each key of `missing` and `missing_some`) finds for an evaluated `key`,
    /// as flagd's evaluator reads it: text and numbers are paths; a list is `[path]` or
    /// `[path, fallback]` (the fallback applies only with exactly two elements), and an empty
    /// list is the whole data; a list whose path is not text, a boolean and an object fail.
    func lookUp(key: JSONValue, in scope: Scope, for operation: String) throws(EvaluationFailure) -> JSONValue? {
        switch key {
        case .null, .string, .int, .double:
            return lookUp(VariablePath(key: key), in: scope)
        case .array(let parts):
            guard let path = parts.first else { return lookUp(VariablePath(key: .none), in: scope) }
            guard case .string = path else {
                throw EvaluationFailure("'\(operation)' needs a path that is text, not \(GoJsonLogic.describe(path))")
            }
            let found = lookUp(VariablePath(key: path), in: scope)
            return parts.count == 2 ? found ?? parts[1] : found
        case .bool, .object:
            throw EvaluationFailure(
                "'\(operation)' needs a path that is text or a number, not \(GoJsonLogic.describe(key))")
        }
    }
}
