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

extension Collection<Expression> {
    /// Each expression's constant value, when every one is a literal; built in one allocation
    /// (the compiler asks this at every array, and `compactMap` grows its result step by step).
    var literalValues: [JSONValue]? {
        var values: [JSONValue] = []
        values.reserveCapacity(count)
        for expression in self {
            guard let value = expression.literalValue else { return nil }
            values.append(value)
        }
        return values
    }
}
