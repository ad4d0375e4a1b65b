extension Operator {
    /// Evaluates the operands in order, then applies the operator as json-logic-js (or, for
    /// `starts_with` and `ends_with`, flagd) defines it.
    func apply(to operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        switch self {
        case .looselyEqual, .strictlyEqual, .notLooselyEqual, .notStrictlyEqual:
            let lhs = try operands.value(at: 0, in: scope, environment)
            let rhs = try operands.value(at: 1, in: scope, environment)
            switch self {
            case .looselyEqual: return .bool(JavaScript.looselyEqual(lhs, rhs))
            case .notLooselyEqual: return .bool(!JavaScript.looselyEqual(lhs, rhs))
            case .strictlyEqual: return .bool(JavaScript.strictlyEqual(lhs, rhs))
            default: return .bool(!JavaScript.strictlyEqual(lhs, rhs))
            }
        case .greater, .greaterOrEqual:
            let lhs = try operands.value(at: 0, in: scope, environment)
            let rhs = try operands.value(at: 1, in: scope, environment)
            return .bool(JavaScript.isLess(rhs, lhs, orEqual: self == .greaterOrEqual))
        case .less, .lessOrEqual:
            let orEqual = self == .lessOrEqual
            let first = try operands.value(at: 0, in: scope, environment)
            let second = try operands.value(at: 1, in: scope, environment)
            guard operands.count > 2 else { return .bool(JavaScript.isLess(first, second, orEqual: orEqual)) }
            let third = try operands.value(at: 2, in: scope, environment)
            return .bool(
                JavaScript.isLess(first, second, orEqual: orEqual) && JavaScript.isLess(second, third, orEqual: orEqual)
            )
        case .not:
            return .bool(!(try operands.value(at: 0, in: scope, environment)?.isTruthy ?? false))
        case .truthy:
            return .bool(try operands.value(at: 0, in: scope, environment)?.isTruthy ?? false)
        case .remainder, .divide, .subtract:
            let lhs = JavaScript.number(try operands.value(at: 0, in: scope, environment))
            guard operands.count > 1 else {
                return self == .subtract ? .number(-lhs) : .number(.nan)
            }
            let rhs = JavaScript.number(try operands.value(at: 1, in: scope, environment))
            switch self {
            case .remainder: return .number(lhs.truncatingRemainder(dividingBy: rhs))
            case .divide: return .number(lhs / rhs)
            default: return .number(lhs - rhs)
            }
        case .add:
            var sum = 0.0
            for operand in operands { sum += try operand.evaluate(in: scope, environment).javaScriptParseFloat }
            return .number(sum)
        case .multiply:
            return try multiply(operands, in: scope, environment)
        case .maximum, .minimum:
            return try extremum(of: operands, in: scope, environment)
        case .concatenate:
            var text = ""
            for operand in operands { text += try operand.evaluate(in: scope, environment).javaScriptJoinText }
            return .string(text)
        case .substring:
            return Self.substring(
                of: JavaScript.string(try operands.value(at: 0, in: scope, environment)),
                start: try operands.value(at: 1, in: scope, environment),
                length: try operands.value(at: 2, in: scope, environment))
        case .contains:
            let needle = try operands.value(at: 0, in: scope, environment)
            let haystack = try operands.value(at: 1, in: scope, environment)
            return .bool(Self.contains(needle, in: haystack))
        case .merge:
            var merged: [JSONValue] = []
            for operand in operands {
                let value = try operand.evaluate(in: scope, environment)
                if case .array(let elements) = value { merged += elements } else { merged.append(value) }
            }
            return .array(merged)
        case .missing:
            var values: [JSONValue] = []
            for operand in operands { values.append(try operand.evaluate(in: scope, environment)) }
            if case .array(let keys)? = values.first { values = keys }
            return .array(Self.missingKeys(values, in: scope, environment))
        case .missingSome:
            return try missingSome(operands, in: scope, environment)
        case .log:
            return try operands.value(at: 0, in: scope, environment) ?? .null
        case .startsWith, .endsWith:
            guard operands.count == 2,
                case .string(let text) = try operands[0].evaluate(in: scope, environment),
                case .string(let affix) = try operands[1].evaluate(in: scope, environment)
            else { return .null }
            return .bool(self == .startsWith ? text.utf8.starts(with: affix.utf8) : Self.hasUTF8Suffix(text, affix))
        }
    }

    /// `*`: json-logic-js reduces with no initial value, so one operand comes back unchanged and
    /// none is a JavaScript `TypeError`.
    private func multiply(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        guard let first = operands.first else { throw EvaluationFailure() }
        let firstValue = try first.evaluate(in: scope, environment)
        guard operands.count > 1 else { return firstValue }
        var product = firstValue.javaScriptParseFloat
        for operand in operands.dropFirst() {
            product *= try operand.evaluate(in: scope, environment).javaScriptParseFloat
        }
        return .number(product)
    }

    /// `max` / `min` (`Math.max` / `Math.min`): `NaN` wins; no operands give `∓Infinity`.
    private func extremum(of operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        var result: Double = self == .maximum ? -.infinity : .infinity
        for operand in operands {
            let number = try operand.evaluate(in: scope, environment).javaScriptNumber
            if number.isNaN || result.isNaN {
                result = .nan
            } else {
                result = self == .maximum ? Swift.max(result, number) : Swift.min(result, number)
            }
        }
        return .number(result)
    }

    /// `missing_some`: `[]` when at least `need` of the keys are present, else the missing keys.
    private func missingSome(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        let need = try operands.value(at: 0, in: scope, environment)
        let options = try operands.value(at: 1, in: scope, environment)
        let keys: [JSONValue]
        let optionCount: Double
        switch options {
        case .array(let elements)?:
            keys = elements.first?.arrayValue ?? elements
            optionCount = Double(elements.count)
        case .string(let text)?:
            keys = [.string(text)]
            optionCount = Double(text.utf16.count)
        case let other:
            keys = [other ?? .null]
            optionCount = .nan
        }
        let missing = Self.missingKeys(keys, in: scope, environment)
        let present = JSONValue.double(optionCount - Double(missing.count))
        return JavaScript.isLess(need, present, orEqual: true) ? .array([]) : .array(missing)
    }

    /// The keys whose `var` lookup gives `null` or "".
    private static func missingKeys(_ keys: [JSONValue], in scope: Scope, _ environment: EvaluationEnvironment)
        -> [JSONValue]
    {
        keys.filter { key in
            switch environment.lookUp(VariablePath(key: key), in: scope) {
            case .none, .null?, .string("")?: return true
            default: return false
            }
        }
    }

    /// `in`: substring search when the haystack is a string, strict-equality membership when it is
    /// an array, and `false` otherwise (including every falsy haystack, as json-logic-js checks `!b`).
    static func contains(_ needle: JSONValue?, in haystack: JSONValue?) -> Bool {
        switch haystack {
        case .string(let text)? where !text.isEmpty:
            let pattern = JavaScript.string(needle)
            return pattern.isEmpty || containsUTF8(text, pattern)
        case .array(let elements)?:
            return elements.contains { JavaScript.strictlyEqual($0, needle) }
        default:
            return false
        }
    }

    /// Byte-wise substring search (UTF-8 matches align on scalars, so this agrees with
    /// JavaScript's code-unit search for well-formed text).
    private static func containsUTF8(_ text: String, _ pattern: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(pattern.utf8)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    private static func hasUTF8Suffix(_ text: String, _ suffix: String) -> Bool {
        let textBytes = text.utf8
        let suffixBytes = suffix.utf8
        guard suffixBytes.count <= textBytes.count else { return false }
        return textBytes.dropFirst(textBytes.count - suffixBytes.count).elementsEqual(suffixBytes)
    }

    /// `substr(source, start, length)` as json-logic-js writes it: a negative length drops that
    /// many code units from the end; otherwise it is `String.prototype.substr`.
    private static func substring(of source: String, start: JSONValue?, length: JSONValue?) -> JSONValue {
        let units = Array(source.utf16)
        if JavaScript.isLess(length, .int(0), orEqual: false) {
            let tail = Array(units[clampedStart(start, count: units.count)...])
            // `temp.length + end`: a string `end` concatenates, and the result is not a number.
            let keep = length?.stringValue == nil ? Double(tail.count) + JavaScript.number(length) : .nan
            return .string(
                String(decoding: tail.prefix(clampedLength(.double(keep), available: tail.count)), as: UTF16.self))
        }
        let from = clampedStart(start, count: units.count)
        var count = units.count - from
        if case .some = length { count = clampedLength(length, available: count) }
        return .string(String(decoding: units[from..<(from + count)], as: UTF16.self))
    }

    /// ECMAScript `ToIntegerOrInfinity`, as a double.
    private static func integer(_ value: JSONValue?) -> Double {
        let number = JavaScript.number(value)
        return number.isNaN ? 0 : number.rounded(.towardZero)
    }

    private static func clampedStart(_ start: JSONValue?, count: Int) -> Int {
        let position = integer(start)
        let size = Double(count)
        if position < 0 { return Int(Swift.max(size + position, 0)) }
        return Int(Swift.min(position, size))
    }

    private static func clampedLength(_ length: JSONValue?, available: Int) -> Int {
        Int(Swift.min(Swift.max(integer(length), 0), Double(available)))
    }
}
