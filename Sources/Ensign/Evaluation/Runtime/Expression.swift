/// A node of a compiled targeting rule.
///
/// ``TargetingCompiler`` builds the tree once from the rule's JSON: operators are resolved to
/// node types, `var` paths are split, constant sub-trees are folded into literals, and `$ref`s
/// are replaced by their evaluators. Evaluating walks the tree without looking at names or
/// re-reading JSON.
///
/// Nodes are classes rather than enum cases so that walking the tree passes references without
/// copying payloads (an enum's array or class payloads are retained and released at every step).
///
/// `@unchecked Sendable`: this class has no stored state, and every subclass (all `final`, all in
/// this module) stores only `let` properties of `Sendable` types set in `init`; nothing mutates a
/// node after compilation, so nodes can be shared between threads.
class Expression: @unchecked Sendable {
    /// Evaluates the node with `scope` as the data `var` reads. Every subclass overrides it.
    func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
        .null
    }

    /// The constant value, when the node is a literal.
    var literalValue: JSONValue? { .none }

    /// Whether the node is a constant.
    var isLiteral: Bool { false }

    /// A constant (including arrays and objects without logic inside).
    static func literal(_ value: JSONValue) -> Expression { LiteralExpression(value) }

    /// An array with logic inside: each element is evaluated.
    static func array(_ elements: [Expression]) -> Expression { ArrayExpression(elements) }

    /// `if` / `?:`: condition, value, condition, value, …, optional else.
    static func conditional(_ operands: [Expression]) -> Expression { ConditionalExpression(operands) }

    /// `and`: the first falsy operand, or the last one.
    static func and(_ operands: [Expression]) -> Expression { LogicalExpression(operands, stopsWhenTruthy: false) }

    /// `or`: the first truthy operand, or the last one.
    static func or(_ operands: [Expression]) -> Expression { LogicalExpression(operands, stopsWhenTruthy: true) }

    /// An operator whose operands are all evaluated first, in order.
    static func operation(_ operation: Operator, _ operands: [Expression]) -> Expression {
        guard operands.count == 2 else { return OperationExpression(operation, operands) }
        switch operation {
        case .looselyEqual, .strictlyEqual, .notLooselyEqual, .notStrictlyEqual:
            return ComparisonExpression(operation, operands[0], operands[1])
        case .contains:
            return ContainsExpression(needle: operands[0], haystack: operands[1])
        default:
            return OperationExpression(operation, operands)
        }
    }
}

/// A constant.
final class LiteralExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        value
    }

    override var literalValue: JSONValue? { value }

    override var isLiteral: Bool { true }
}

/// An array with logic inside.
final class ArrayExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    let elements: [Expression]

    init(_ elements: [Expression]) {
        self.elements = elements
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue
    {
        var values: [JSONValue] = []
        values.reserveCapacity(elements.count)
        for index in elements.indices { values.append(try elements[index].evaluate(in: scope, environment)) }
        return .array(values)
    }
}

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

/// The operators evaluated as plain functions of their (already evaluated) operands.
enum Operator: Sendable, Hashable {
    case looselyEqual, strictlyEqual, notLooselyEqual, notStrictlyEqual
    case greater, greaterOrEqual, less, lessOrEqual
    case not, truthy
    case remainder, add, multiply, subtract, divide, maximum, minimum
    case concatenate, substring, contains, merge, missing, missingSome, log
    case startsWith, endsWith
}

/// A compiled `var` whose path is a literal, split at compile time.
final class VariableNode: Expression, @unchecked Sendable {  // immutable: see Expression
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
final class ComputedVariableNode: Expression, @unchecked Sendable {  // immutable: see Expression
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
