#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Operator {
    /// Evaluates the operands in order, then applies the operator as flagd's evaluator does
    /// (github.com/diegoholiveira/jsonlogic v3.9.1 and flagd's own operators), keeping
    /// json-logic-js's behaviour where its test suite pins it down and for the loose and relational
    /// comparisons of mixed types.
    ///
    /// Every operand is evaluated, as flagd evaluates every argument before applying an operator.
    func apply(to operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        switch self {
        case .looselyEqual, .strictlyEqual, .notLooselyEqual, .notStrictlyEqual:
            let lhs = try operands.value(at: 0, in: scope, environment)
            let rhs = try operands.value(at: 1, in: scope, environment)
            try operands.evaluateIgnored(from: 2, in: scope, environment)
            let isNegated = self == .notLooselyEqual || self == .notStrictlyEqual
            // flagd: fewer than two values are never equal.
            guard let lhs, let rhs else { return .bool(isNegated) }
            let equal =
                self == .looselyEqual || self == .notLooselyEqual
                ? JavaScript.looselyEqual(lhs, rhs) : JavaScript.strictlyEqual(lhs, rhs)
            return .bool(equal != isNegated)
        case .greater, .greaterOrEqual, .less, .lessOrEqual:
            return try compare(operands, in: scope, environment)
        case .not, .truthy:
            let value = try operands.value(at: 0, in: scope, environment)
            try operands.evaluateIgnored(from: 1, in: scope, environment)
            // No operand: flagd negates the empty list, which is false.
            let isTruthy = value?.isTruthy ?? false
            return .bool(self == .truthy ? isTruthy : !isTruthy)
        case .remainder, .add, .multiply, .subtract, .divide, .maximum, .minimum:
            return try arithmetic(operands, in: scope, environment)
        case .concatenate:
            return try concatenate(operands, in: scope, environment)
        case .substring:
            guard operands.count >= 2 else {
                throw EvaluationFailure("'substr' needs a text and a start")
            }
            let source = try operands[0].evaluate(in: scope, environment)
            let start = try operands[1].evaluate(in: scope, environment)
            let length = try operands.value(at: 2, in: scope, environment)
            try operands.evaluateIgnored(from: 3, in: scope, environment)
            // flagd reads the length only when there are exactly three arguments.
            return try Self.substring(of: source, start: start, length: operands.count == 3 ? length : nil)
        case .contains:
            guard let needle = try operands.value(at: 0, in: scope, environment) else {
                throw EvaluationFailure("'in' needs a value to look for")
            }
            let haystack = try operands.value(at: 1, in: scope, environment) ?? .null
            try operands.evaluateIgnored(from: 2, in: scope, environment)
            return .bool(try Self.contains(needle, in: haystack))
        case .merge:
            var merged: [JSONValue] = []
            for operand in operands {
                let value = try operand.evaluate(in: scope, environment)
                if case .array(let elements) = value { merged += elements } else { merged.append(value) }
            }
            return .array(merged)
        case .missing:
            var missing: [JSONValue] = []
            for operand in operands {
                let key = try operand.evaluate(in: scope, environment)
                if try Self.isMissing(key, in: scope, environment, for: "missing") { missing.append(key) }
            }
            return .array(missing)
        case .missingSome:
            return try missingSome(operands, in: scope, environment)
        case .log:
            let value = try operands.value(at: 0, in: scope, environment)
            try operands.evaluateIgnored(from: 1, in: scope, environment)
            return value ?? .null
        case .startsWith, .endsWith:
            // flagd's string comparisons: exactly two texts, else null.
            let text = try operands.value(at: 0, in: scope, environment)
            let affix = try operands.value(at: 1, in: scope, environment)
            try operands.evaluateIgnored(from: 2, in: scope, environment)
            guard operands.count == 2, case .string(let text)? = text, case .string(let affix)? = affix else {
                return .null
            }
            return .bool(self == .startsWith ? text.utf8.starts(with: affix.utf8) : Self.hasUTF8Suffix(text, affix))
        }
    }

    /// `<`, `<=`, `>`, `>=`: flagd compares the first two operands, or with exactly three reads
    /// a "between" (`{"<": [1, x, 5]}` is 1 < x < 5, `{">": [5, x, 1]}` is 5 > x > 1); fewer than
    /// two operands give `false`. Values coerce as in JavaScript.
    private func compare(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        let first = try operands.value(at: 0, in: scope, environment)
        let second = try operands.value(at: 1, in: scope, environment)
        let third = try operands.value(at: 2, in: scope, environment)
        try operands.evaluateIgnored(from: 3, in: scope, environment)
        guard let first, let second else { return false }
        let orEqual = self == .lessOrEqual || self == .greaterOrEqual
        // `a > b` is `b < a`.
        let (low, high) = self == .less || self == .lessOrEqual ? (first, second) : (second, first)
        guard operands.count == 3, let third else { return .bool(JavaScript.isLess(low, high, orEqual: orEqual)) }
        let ordered =
            self == .less || self == .lessOrEqual
            ? JavaScript.isLess(first, second, orEqual: orEqual) && JavaScript.isLess(second, third, orEqual: orEqual)
            : JavaScript.isLess(third, second, orEqual: orEqual) && JavaScript.isLess(second, first, orEqual: orEqual)
        return .bool(ordered)
    }

    /// `+`, `-`, `*`, `/`, `%`, `max`, `min` as flagd computes them: text is read as a number
    /// (0 when it is not one), `null` and booleans fail. `+` of nothing is 0, `*` of nothing 1;
    /// `-` and `/` apply left to right (`-` of one value negates it, `-` and `/` of nothing are
    /// 0); `%` needs two values; `max` and `min` of nothing are `null`.
    private func arithmetic(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        func number(_ index: Int) throws(EvaluationFailure) -> Double {
            try GoJsonLogic.number(operands[index].evaluate(in: scope, environment), for: name)
        }
        switch self {
        case .add, .multiply:
            var result: Double = self == .add ? 0 : 1
            for index in operands.indices {
                let value = try number(index)
                result = self == .add ? result + value : result * value
            }
            return .number(result)
        case .subtract, .divide:
            guard !operands.isEmpty else { return 0 }
            var result = try number(0)
            if operands.count == 1 { return .number(self == .subtract ? -1 * result : result) }
            for index in operands.indices.dropFirst() {
                let value = try number(index)
                result = self == .subtract ? result - value : result / value
            }
            return .number(result)
        case .remainder:
            guard operands.count >= 2 else {
                throw EvaluationFailure("'%' needs two numbers, but was given \(operands.count)")
            }
            let dividend = try number(0)
            let divisor = try number(1)
            try operands.evaluateIgnored(from: 2, in: scope, environment)
            return .number(fmod(dividend, divisor))
        default:
            guard !operands.isEmpty else { return .null }
            var result = try number(0)
            for index in operands.indices.dropFirst() {
                let value = try number(index)
                // Go's comparisons: a NaN never replaces the current value.
                if self == .maximum ? value > result : value < result { result = value }
            }
            return .number(result)
        }
    }

    /// `cat` as flagd joins: text as it is, numbers in fixed notation, `null` as nothing;
    /// booleans, arrays and objects fail. Joining two or more values trims white space from
    /// the ends of the result (flagd's quirk: `{"cat": [" a", "b "]}` is "ab").
    private func concatenate(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        var text = ""
        for operand in operands {
            text += try GoJsonLogic.text(operand.evaluate(in: scope, environment), for: "cat")
        }
        guard operands.count > 1 else { return .string(text) }
        return .string(Self.trimmingWhiteSpace(text))
    }

    /// Go's `strings.TrimSpace`: Unicode white space off both ends.
    private static func trimmingWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// `missing_some`: `[]` when at least `need` of the keys have values, else the missing
    /// keys. flagd needs exactly a number and an array.
    private func missingSome(_ operands: [Expression], in scope: Scope, _ environment: EvaluationEnvironment)
        throws(EvaluationFailure) -> JSONValue
    {
        guard operands.count >= 2 else {
            throw EvaluationFailure("'missing_some' needs a count and an array of keys")
        }
        let need = try GoJsonLogic.number(operands[0].evaluate(in: scope, environment), for: "missing_some")
        let keys = try operands[1].evaluate(in: scope, environment)
        try operands.evaluateIgnored(from: 2, in: scope, environment)
        guard case .array(let keys) = keys else {
            throw EvaluationFailure("'missing_some' needs an array of keys, not \(GoJsonLogic.describe(keys))")
        }
        var missing: [JSONValue] = []
        for key in keys where try Self.isMissing(key, in: scope, environment, for: "missing_some") {
            missing.append(key)
        }
        return GoJsonLogic.integer(need) > keys.count - missing.count ? .array(missing) : .array([])
    }

    /// Whether `var` finds no value (or `null`) for `key`.
    private static func isMissing(
        _ key: JSONValue, in scope: Scope, _ environment: EvaluationEnvironment, for operation: String
    ) throws(EvaluationFailure) -> Bool {
        switch try environment.lookUp(key: key, in: scope, for: operation) {
        case .none, .null?: return true
        default: return false
        }
    }

    /// `in` as flagd reads it: text in text (the needle must be text), or membership in an
    /// array, where an element that is an array `[low, high]` is an inclusive numeric range, a
    /// number needle matches elements that read as that number (`"1"` for 1), and any other
    /// needle matches an element of the same type and value. Any other haystack gives `false`.
    static func contains(_ needle: JSONValue, in haystack: JSONValue) throws(EvaluationFailure) -> Bool {
        switch haystack {
        case .string(let text):
            guard case .string(let pattern) = needle else {
                throw EvaluationFailure("'in' looks for text in text, not for \(GoJsonLogic.describe(needle))")
            }
            // Every text contains "", the empty text included, as in JavaScript's and Go's own
            // searches (json-logic-js alone finds nothing in "").
            return pattern.isEmpty || containsUTF8(text, pattern)
        case .array(let elements):
            for element in elements where try isMember(needle, element) { return true }
            return false
        default:
            return false
        }
    }

    /// Whether `element` of an `in` array matches `needle`.
    private static func isMember(_ needle: JSONValue, _ element: JSONValue) throws(EvaluationFailure) -> Bool {
        if case .array(let range) = element {
            guard range.count >= 2 else {
                throw EvaluationFailure("'in' reads an array element as a range [low, high], not \(element.jsonText)")
            }
            let value = try GoJsonLogic.number(needle, for: "in")
            guard value >= (try GoJsonLogic.number(range[0], for: "in")) else { return false }
            return try GoJsonLogic.number(range[1], for: "in") >= value
        }
        if let number = needle.numericValue { return try GoJsonLogic.number(element, for: "in") == number }
        switch (needle, element) {
        case (.string(let lhs), .string(let rhs)): return JavaScript.haveSameScalars(lhs, rhs)
        case (.bool(let lhs), .bool(let rhs)): return lhs == rhs
        case (.null, .null): return true
        case (.object, .object): throw EvaluationFailure("'in' cannot compare objects")
        default: return false
        }
    }

    /// Byte-wise substring search (UTF-8 matches align on scalars, so this agrees with
    /// JavaScript's code-unit search for well-formed text).
    static func containsUTF8(_ text: String, _ pattern: String) -> Bool {
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

    /// `substr(source, start, length)` as flagd's evaluator computes it, counting Unicode
    /// scalars (code points): a negative start counts from the end, and a start still before the
    /// beginning, or past the end, gives the whole text; a negative length ends that many scalars
    /// before the end of the whole text, and an end before the start fails. Numbers are written
    /// in fixed notation; positions read as numbers and are truncated.
    private static func substring(of source: JSONValue, start: JSONValue, length: JSONValue?)
        throws(EvaluationFailure) -> JSONValue
    {
        let scalars = Array(try GoJsonLogic.text(source, for: "substr").unicodeScalars)
        let count = scalars.count
        // Go's ints wrap; so does this arithmetic, on absurd positions.
        var from = GoJsonLogic.integer(try GoJsonLogic.number(start, for: "substr"))
        if from < 0 { from = count &+ from }
        guard from >= 0, from <= count else { return .string(String(String.UnicodeScalarView(scalars))) }
        var end = count
        if let length {
            let taken = GoJsonLogic.integer(try GoJsonLogic.number(length, for: "substr"))
            end = taken < 0 ? count &+ taken : from &+ taken
        }
        end = Swift.min(end, count)
        guard end >= from else {
            throw EvaluationFailure("'substr' ends at \(end), before its start at \(from)")
        }
        return .string(String(String.UnicodeScalarView(scalars[from..<end])))
    }
}
