#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// JsonLogic's conformance data comes from json-logic-js, so values coerce the way JavaScript
// coerces them. `JSONValue?` stands for a JavaScript value where `nil` is `undefined` (an
// argument that was not given), which differs from `null` in a few operators.

extension JSONValue {
    /// The largest magnitude below which every integer is exactly representable as a double.
    static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// A number result: integral values become ``JSONValue/int(_:)`` (JavaScript has one number
    /// type; an `int` flag should get an `int`), everything else stays a double — negative zero
    /// too, since flagd names the variant "-0" for it.
    static func number(_ value: Double) -> JSONValue {
        if value.rounded(.towardZero) == value, abs(value) < exactIntegerLimit, value != 0 || value.sign == .plus {
            return .int(Int(value))
        }
        return .double(value)
    }

    /// JsonLogic truthiness: `false`, `0`, `NaN`, `""`, `null` and `[]` are false; everything
    /// else, including `{}` and `"0"`, is true.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return !(value == 0 || value.isNaN)
        case .string(let value): return !value.isEmpty
        case .array(let value): return !value.isEmpty
        case .object: return true
        }
    }

    /// Whether the value is a number (integer or double).
    var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }

    /// ECMAScript `ToNumber`.
    var javaScriptNumber: Double {
        switch self {
        case .null: return 0
        case .bool(let value): return value ? 1 : 0
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .string(let value): return JavaScriptNumberText.number(from: value)
        case .array, .object: return JavaScriptNumberText.number(from: javaScriptString)
        }
    }

    /// ECMAScript `ToString` (arrays join their elements with commas, `null` elements as "").
    var javaScriptString: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return JavaScriptNumberText.text(for: value)
        case .string(let value): return value
        case .array(let elements): return elements.map(\.javaScriptJoinText).joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// The text `Array.prototype.join` uses for an element: `null` becomes "".
    var javaScriptJoinText: String {
        if case .null = self { return "" }
        return javaScriptString
    }

    /// ECMAScript `parseFloat(value)`: the number at the start of the value's text.
    var javaScriptParseFloat: Double {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value == 0 ? 0 : value
        default: return JavaScriptNumberText.parseFloat(javaScriptString)
        }
    }
}

/// JavaScript's operators over values that may be `undefined` (`nil`).
enum JavaScript {
    /// ECMAScript `ToNumber`, with `undefined` giving `NaN`.
    static func number(_ value: JSONValue?) -> Double {
        value?.javaScriptNumber ?? .nan
    }

    /// ECMAScript `ToString`, with `undefined` giving "undefined".
    static func string(_ value: JSONValue?) -> String {
        value?.javaScriptString ?? "undefined"
    }

    /// `a == b` (abstract equality). Arrays and objects are equal to each other only by identity in
    /// JavaScript, and every array a rule builds is a new one, so two containers are never equal.
    static func looselyEqual(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none), (.none, .null?), (.null?, .none), (.null?, .null?): return true
        case (.none, _), (_, .none), (.null?, _), (_, .null?): return false
        case (let lhs?, let rhs?): return looselyEqualDefined(lhs, rhs)
        }
    }

    private static func looselyEqualDefined(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double): return lhs.javaScriptNumber == rhs.javaScriptNumber
        case (.string(let a), .string(let b)): return haveSameScalars(a, b)
        case (.bool(let a), .bool(let b)): return a == b
        case (.bool(let a), _): return looselyEqualDefined(.int(a ? 1 : 0), rhs)
        case (_, .bool(let b)): return looselyEqualDefined(lhs, .int(b ? 1 : 0))
        case (.string, .int), (.string, .double), (.int, .string), (.double, .string):
            return lhs.javaScriptNumber == rhs.javaScriptNumber
        case (.array, .array), (.array, .object), (.object, .array), (.object, .object): return false
        case (.array, _), (.object, _): return looselyEqualDefined(.string(lhs.javaScriptString), rhs)
        case (_, .array), (_, .object): return looselyEqualDefined(lhs, .string(rhs.javaScriptString))
        default: return false
        }
    }

    /// `a === b` (strict equality): same type and value; containers only by identity (never).
    static func strictlyEqual(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none), (.null?, .null?): return true
        case (.int(let a)?, .int(let b)?): return a == b
        case (.int?, .double?), (.double?, .int?), (.double?, .double?):
            return number(lhs) == number(rhs)
        case (.string(let a)?, .string(let b)?): return haveSameScalars(a, b)
        case (.bool(let a)?, .bool(let b)?): return a == b
        default: return false
        }
    }

    /// `a < b` (or `a <= b`): strings compare by Unicode code points (their UTF-8 bytes), as
    /// flagd's daemon compares them, when both sides are text after `ToPrimitive` (json-logic-js
    /// compares UTF-16 code units, which orders U+E000–U+FFFF after astral characters);
    /// otherwise both sides become numbers and `NaN` compares false.
    static func isLess(_ lhs: JSONValue?, _ rhs: JSONValue?, orEqual: Bool) -> Bool {
        if case .int(let a)? = lhs, case .int(let b)? = rhs { return orEqual ? a <= b : a < b }
        let left = primitive(lhs)
        let right = primitive(rhs)
        if case .string(let a)? = left, case .string(let b)? = right {
            if orEqual { return !b.utf8.lexicographicallyPrecedes(a.utf8) }
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        let a = number(left)
        let b = number(right)
        return orEqual ? a <= b : a < b
    }

    /// ECMAScript `ToPrimitive` with the number hint: arrays and objects become their text.
    private static func primitive(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case .array?, .object?: return .string(value!.javaScriptString)
        default: return value
        }
    }

    /// Whether two strings have the same Unicode scalars — the same UTF-8 bytes — as flagd and
    /// JavaScript compare text. Never Swift's `String ==`, which is canonical equivalence: "é"
    /// and "e\u{301}" differ here, and so do "K" and the Kelvin sign U+212A.
    static func haveSameScalars(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        // Native and small strings expose their UTF-8 directly: compare the bytes at once.
        let compared = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
            }
        }
        if let compared, let result = compared { return result }
        return left.elementsEqual(right)
    }
}
