/// A compiled `map`, `filter`, `reduce`, `all`, `none` or `some`.
final class IterationExpression: Expression, @unchecked Sendable {  // immutable: see Expression
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

    /// Runs the body over the source's elements as json-logic-js does.
    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        let collection = try source?.evaluate(in: scope, environment)
        switch kind {
        case .map:
            guard case .array(let elements)? = collection else { return .array([]) }
            var results: [JSONValue] = []
            results.reserveCapacity(elements.count)
            for element in elements { results.append(try run(on: .value(element), environment)) }
            return .array(results)
        case .filter:
            guard case .array(let elements)? = collection else { return .array([]) }
            var results: [JSONValue] = []
            for element in elements where try run(on: .value(element), environment).isTruthy {
                results.append(element)
            }
            return .array(results)
        case .reduce:
            var accumulator = try initial?.evaluate(in: scope, environment) ?? .null
            guard case .array(let elements)? = collection else { return accumulator }
            for element in elements {
                accumulator = try run(on: .reduction(current: element, accumulator: accumulator), environment)
            }
            return accumulator
        case .all, .none, .some:
            let elements = try Self.elementsForQuantifier(collection)
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

    private func run(on scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
        try body?.evaluate(in: scope, environment) ?? .null
    }

    /// What `all`/`none`/`some` iterate: json-logic-js reads `.length` and indexes, so `null`
    /// throws, a string yields its UTF-16 code units, and other values have no elements.
    private static func elementsForQuantifier(_ collection: JSONValue?) throws(EvaluationFailure) -> [JSONValue] {
        switch collection {
        case .none, .null?:
            throw EvaluationFailure()
        case .array(let elements)?:
            return elements
        case .string(let text)?:
            return text.utf16.map { .string(String(decoding: [$0], as: UTF16.self)) }
        default:
            return []
        }
    }
}
