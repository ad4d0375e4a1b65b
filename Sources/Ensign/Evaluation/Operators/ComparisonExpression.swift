/// `==`, `===`, `!=` and `!==` with exactly two operands: the commonest operators in targeting
/// rules, kept out of ``Operator/apply(to:in:_:)`` so that they run without its generality.
final class ComparisonExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let lhs: Expression
    let rhs: Expression
    let isStrict: Bool
    let isNegated: Bool

    init(_ operation: Operator, _ lhs: Expression, _ rhs: Expression) {
        self.lhs = lhs
        self.rhs = rhs
        isStrict = operation == .strictlyEqual || operation == .notStrictlyEqual
        isNegated = operation == .notLooselyEqual || operation == .notStrictlyEqual
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        let left = try lhs.evaluate(in: scope, environment)
        let right = try rhs.evaluate(in: scope, environment)
        if case .string(let leftText) = left, case .string(let rightText) = right {
            return .bool(JavaScript.haveSameScalars(leftText, rightText) != isNegated)
        }
        let equal = isStrict ? JavaScript.strictlyEqual(left, right) : JavaScript.looselyEqual(left, right)
        return .bool(equal != isNegated)
    }
}

/// `in` with two operands; when the haystack is a literal array of strings (`["FR", "BE"]`),
/// membership is a scan of those strings, with no array built or coerced per evaluation.
final class ContainsExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let needle: Expression
    let haystack: Expression
    /// The haystack's strings, when it is a literal array of strings only.
    let literalStrings: [String]?

    init(needle: Expression, haystack: Expression) {
        self.needle = needle
        self.haystack = haystack
        if case .array(let elements)? = haystack.literalValue {
            let strings = elements.compactMap(\.stringValue)
            literalStrings = strings.count == elements.count ? strings : nil
        } else {
            literalStrings = nil
        }
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        let value = try needle.evaluate(in: scope, environment)
        guard let literalStrings else {
            return .bool(try Operator.contains(value, in: try haystack.evaluate(in: scope, environment)))
        }
        switch value {
        case .string(let text):
            for index in literalStrings.indices where JavaScript.haveSameScalars(literalStrings[index], text) {
                return true
            }
            return false
        case .int, .double:
            // flagd reads each element as a number for a number needle ("1" matches 1).
            return .bool(try Operator.contains(value, in: .array(literalStrings.map(JSONValue.string))))
        default:
            // Only a string equals a string.
            return false
        }
    }
}
