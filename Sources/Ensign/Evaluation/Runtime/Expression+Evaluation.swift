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
