extension Expression {
    /// Evaluates the expression with `scope` as the data `var` reads.
    func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .array(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try element.evaluate(in: scope, environment)) }
            return .array(values)
        case .variable(let node):
            return try node.evaluate(in: scope, environment)
        case .conditional(let operands):
            var index = 0
            while index + 1 < operands.count {
                if try operands[index].evaluate(in: scope, environment).isTruthy {
                    return try operands[index + 1].evaluate(in: scope, environment)
                }
                index += 2
            }
            return index < operands.count ? try operands[index].evaluate(in: scope, environment) : .null
        case .and(let operands):
            var last = JSONValue.null
            for operand in operands {
                last = try operand.evaluate(in: scope, environment)
                if !last.isTruthy { return last }
            }
            return last
        case .or(let operands):
            var last = JSONValue.null
            for operand in operands {
                last = try operand.evaluate(in: scope, environment)
                if last.isTruthy { return last }
            }
            return last
        case .operation(let operation, let operands):
            return try operation.apply(to: operands, in: scope, environment)
        case .iteration(let node):
            return try node.evaluate(in: scope, environment)
        case .fractional(let node):
            return try node.evaluate(in: scope, environment)
        case .semanticVersion(let node):
            return try node.evaluate(in: scope, environment)
        }
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
}

extension VariableNode {
    /// `var`: the value at the path, else the fallback, else `null`.
    func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
        // json-logic-js evaluates both arguments before looking anything up.
        let fallbackValue = try fallback?.evaluate(in: scope, environment)
        let found: JSONValue?
        switch key {
        case .fixed(let path):
            found = environment.lookUp(path, in: scope)
        case .computed(let expression):
            found = environment.lookUp(VariablePath(key: try expression.evaluate(in: scope, environment)), in: scope)
        }
        return found ?? fallbackValue ?? .null
    }
}

extension IterationNode {
    /// Runs the body over the source's elements as json-logic-js does.
    func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure) -> JSONValue {
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
