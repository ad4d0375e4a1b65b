/// A node of a compiled targeting rule.
///
/// ``TargetingCompiler`` builds the tree once from the rule's JSON: operators are resolved to
/// cases, `var` paths are split, constant sub-trees are folded into literals, and `$ref`s are
/// replaced by their evaluators. Evaluating walks the tree without looking at names or
/// re-reading JSON.
enum Expression: Sendable {
    /// A constant (including arrays and objects without logic inside).
    case literal(JSONValue)
    /// An array with logic inside: each element is evaluated.
    case array([Expression])
    /// `var`: a lookup in the current data.
    case variable(VariableNode)
    /// `if` / `?:`: condition, value, condition, value, …, optional else.
    case conditional([Expression])
    /// `and`: the first falsy operand, or the last one.
    case and([Expression])
    /// `or`: the first truthy operand, or the last one.
    case or([Expression])
    /// An operator whose operands are all evaluated first, in order.
    case operation(Operator, [Expression])
    /// `map`, `filter`, `reduce`, `all`, `none`, `some`: a body evaluated per element.
    case iteration(IterationNode)
    /// flagd's `fractional`.
    case fractional(FractionalNode)
    /// flagd's `sem_ver`.
    case semanticVersion(SemanticVersionNode)

    /// Whether the expression is a constant.
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// The constant value, when the expression is a literal.
    var literalValue: JSONValue? {
        if case .literal(let value) = self { return value }
        return nil
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

/// A compiled `var`.
final class VariableNode: Sendable {
    /// Where the path comes from.
    enum Key: Sendable {
        /// A literal path, split at compile time.
        case fixed(VariablePath)
        /// A path computed by an expression at evaluation time.
        case computed(Expression)
    }

    let key: Key
    /// The value when the path leads nowhere; `null` when absent.
    let fallback: Expression?

    init(key: Key, fallback: Expression?) {
        self.key = key
        self.fallback = fallback
    }
}

/// A compiled `map`, `filter`, `reduce`, `all`, `none` or `some`.
final class IterationNode: Sendable {
    /// Which iteration.
    enum Kind: Sendable {
        case map, filter, reduce, all, none, some
    }

    let kind: Kind
    /// The collection; `nil` when the argument was not given (JavaScript's `undefined`).
    let source: Expression?
    /// The logic run per element; `nil` when not given.
    let body: Expression?
    /// `reduce`'s initial accumulator.
    let initial: Expression?

    init(kind: Kind, source: Expression?, body: Expression?, initial: Expression?) {
        self.kind = kind
        self.source = source
        self.body = body
        self.initial = initial
    }
}
