/// A compiled `map`, `filter`, `reduce`, `all`, `none` or `some`, run as flagd's evaluator
/// runs it.
///
/// The collection is the first argument when it is written as an array, or the value of an
/// operation there; any other first argument (a string, a number) is no collection at all,
/// like `null`. `map` and `filter` of no collection are `[]`, `reduce` of none is 0, and `all`,
/// `none` and `some` of none — or of an empty value, `""` and `{}` included — are `false`,
/// `true` and `false`, as over an empty array. A value that is not an array (a `var` naming a
/// string, say) fails: a string's characters are never iterated.
final class IterationExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    /// Which iteration.
    enum Kind: String, Sendable {
        case map, filter, reduce, all, none, some
    }

    let kind: Kind
    /// The collection.
    let source: Expression
    /// Whether the collection is evaluated: it is written as an array or an object. Otherwise
    /// there is no collection.
    let sourceIsCollection: Bool
    /// The logic run per element; `nil` when not given.
    let body: Expression?
    /// Why the body cannot run, when flagd's evaluator would fail on it (it is missing, or is
    /// not an object where flagd applies it as an operation).
    let bodyFailure: String?
    /// `reduce`'s initial accumulator.
    let initial: Expression?

    init(
        kind: Kind, source: Expression, sourceIsCollection: Bool, body: Expression?, bodyFailure: String?,
        initial: Expression?
    ) {
        self.kind = kind
        self.source = source
        self.sourceIsCollection = sourceIsCollection
        self.body = body
        self.bodyFailure = bodyFailure
        self.initial = initial
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        switch kind {
        case .map:
            guard let elements = try collection(in: scope, environment) else { return .array([]) }
            var results: [JSONValue] = []
            results.reserveCapacity(elements.count)
            for element in elements { results.append(try run(on: .value(element), environment)) }
            return .array(results)
        case .filter:
            guard let elements = try collection(in: scope, environment) else { return .array([]) }
            var results: [JSONValue] = []
            for element in elements where try run(on: .value(element), environment).isTruthy {
                results.append(element)
            }
            return .array(results)
        case .reduce:
            return try reduce(in: scope, environment)
        case .all, .none, .some:
            let elements = try elementsForQuantifier(
                sourceIsCollection ? try source.evaluate(in: scope, environment) : .null)
            if elements.isEmpty { return .bool(kind == .none) }
            for element in elements {
                let holds = try run(on: .value(element), environment).isTruthy
                switch kind {
                case .all where !holds: return false
                case .none where holds, .some where holds: return .bool(kind == .some)
                default: continue
                }
            }
            return .bool(kind != .some)
        }
    }

    /// The elements of the collection, or `nil` when there is none.
    private func collection(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> [JSONValue]?
    {
        guard sourceIsCollection else { return nil }
        switch try source.evaluate(in: scope, environment) {
        case .null: return nil
        case .array(let elements): return elements
        case let other:
            throw EvaluationFailure("'\(kind.rawValue)' needs an array, not \(GoJsonLogic.describe(other))")
        }
    }

    /// `reduce` as flagd runs it: the initial value must be a boolean, number or string, and the
    /// accumulator is converted back to that type after every step; `null` elements are skipped.
    private func reduce(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        var accumulator = try initial?.evaluate(in: scope, environment) ?? .null
        switch accumulator {
        case .bool, .string: break
        case .int, .double: accumulator = .number(try GoJsonLogic.number(accumulator, for: "reduce"))
        default:
            throw EvaluationFailure(
                "'reduce' needs an initial value that is a boolean, number or text, not \(GoJsonLogic.describe(accumulator))"
            )
        }
        guard let elements = try collection(in: scope, environment) else { return 0 }
        for element in elements where !element.isNull {
            let value = try run(on: .reduction(current: element, accumulator: accumulator), environment)
            switch accumulator {
            case .bool: accumulator = .bool(GoJsonLogic.isTruthy(value))
            case .string: accumulator = .string(try GoJsonLogic.text(value, for: "reduce"))
            default: accumulator = .number(try GoJsonLogic.number(value, for: "reduce"))
            }
        }
        return accumulator
    }

    private func run(on scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
        if let bodyFailure { throw EvaluationFailure(bodyFailure) }
        return try body?.evaluate(in: scope, environment) ?? .null
    }

    /// What `all`/`none`/`some` iterate, as flagd reads it: `null`, `""`, `0`, `false`, `[]` and
    /// `{}` (or no collection) have no elements, so `some` and `all` are false and `none` true;
    /// an array its elements; any other value — a string, whose characters are never iterated,
    /// a non-empty object, a number — fails.
    private func elementsForQuantifier(_ collection: JSONValue) throws(EvaluationFailure) -> [JSONValue] {
        guard GoJsonLogic.isTruthy(collection) else { return [] }
        guard case .array(let elements) = collection else {
            throw EvaluationFailure("'\(kind.rawValue)' needs an array, not \(GoJsonLogic.describe(collection))")
        }
        return elements
    }
}
