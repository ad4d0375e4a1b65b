/// The operators evaluated as plain functions of their (already evaluated) operands.
enum Operator: Sendable, Hashable {
    case looselyEqual, strictlyEqual, notLooselyEqual, notStrictlyEqual
    case greater, greaterOrEqual, less, lessOrEqual
    case not, truthy
    case remainder, add, multiply, subtract, divide, maximum, minimum
    case concatenate, substring, contains, merge, missing, missingSome, log
    case startsWith, endsWith

    /// The operator's name, for messages.
    var name: String {
        switch self {
        case .looselyEqual: return "=="
        case .strictlyEqual: return "==="
        case .notLooselyEqual: return "!="
        case .notStrictlyEqual: return "!=="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .not: return "!"
        case .truthy: return "!!"
        case .remainder: return "%"
        case .add: return "+"
        case .multiply: return "*"
        case .subtract: return "-"
        case .divide: return "/"
        case .maximum: return "max"
        case .minimum: return "min"
        case .concatenate: return "cat"
        case .substring: return "substr"
        case .contains: return "in"
        case .merge: return "merge"
        case .missing: return "missing"
        case .missingSome: return "missing_some"
        case .log: return "log"
        case .startsWith: return "starts_with"
        case .endsWith: return "ends_with"
        }
    }

    /// What the operator does when its operand is one value rather than an array of them
    /// (`{"!": true}`, or an operation whose value is not an array), as flagd's evaluator does.
    enum LoneOperand {
        /// The value is the only argument (`{"!": true}` is `{"!": [true]}`).
        case onlyArgument
        /// The operator gives this value (`===` of one value is `false`).
        case constant(JSONValue)
        /// flagd's evaluator fails: it needs an array here.
        case failure(String)
    }

    /// How the operator reads a lone `value` as its operand.
    func rule(forLoneOperand value: JSONValue) -> LoneOperand {
        let failure = LoneOperand.failure(
            "'\(name)' takes an array of arguments, not \(GoJsonLogic.describe(value))")
        switch self {
        case .strictlyEqual: return .constant(false)
        case .notStrictlyEqual: return .constant(true)
        case .not, .truthy, .add, .log, .startsWith, .endsWith: return .onlyArgument
        case .concatenate, .missing:
            if case .string = value { return .onlyArgument }
            return failure
        case .merge:
            switch value {
            case .null, .object: return failure
            default: return .onlyArgument
            }
        case .looselyEqual, .notLooselyEqual, .greater, .greaterOrEqual, .less, .lessOrEqual, .contains, .substring,
            .maximum, .minimum, .multiply, .subtract, .divide, .remainder, .missingSome:
            return failure
        }
    }
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

/// An operator whose operand is one operation (`{"max": {"var": "scores"}}`): flagd evaluates
/// it and reads its value as the argument list when it is an array, or as a lone operand.
final class ComputedOperandsExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let operation: Operator
    let operand: Expression

    init(_ operation: Operator, _ operand: Expression) {
        self.operation = operation
        self.operand = operand
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        let value = try operand.evaluate(in: scope, environment)
        if case .array(let values) = value {
            return try operation.apply(to: values.map(Expression.literal), in: scope, environment)
        }
        switch operation.rule(forLoneOperand: value) {
        case .onlyArgument: return try operation.apply(to: [.literal(value)], in: scope, environment)
        case .constant(let result): return result
        case .failure(let message): throw EvaluationFailure(message)
        }
    }
}

/// A part of a rule flagd's evaluator cannot evaluate (`{"<": 5}`, `{"if": true}`): evaluating
/// it fails, so the flag reads `PARSE_ERROR` where — and only where — the rule reaches it.
final class FailingExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let message: String

    init(_ message: String) {
        self.message = message
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        throw EvaluationFailure(message)
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

    /// Evaluates the operands from `index` on and drops their values: flagd evaluates every
    /// argument of an operator, even those it then ignores, so their failures count.
    @inline(__always)
    func evaluateIgnored(from index: Int, in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure)
    {
        var position = index
        while position < count {
            _ = try self[position].evaluate(in: scope, environment)
            position += 1
        }
    }
}
