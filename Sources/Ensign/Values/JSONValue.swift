/// A JSON-like value: what flags hold, what targeting rules compute with, and what
/// evaluation contexts carry.
///
/// Integers and doubles stay distinct so that an `int` flag never silently becomes a
/// `double`; targeting compares them numerically (``JSONValue/numericValue``).
///
/// There is deliberately no `nil` literal: write `.null`, so that in a `JSONValue?` `nil`
/// always means "no value" and never JSON's null.
///
/// ```swift
/// let value: JSONValue = ["country": "FR", "age": 42, "beta": true]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// A string-keyed collection of values.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The value as a `Bool`, when it is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as an `Int`, when it is an integer (or a double with no fractional part).
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The value as a `Double`, when it is a number.
    public var numericValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The value as a `String`, when it is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when the value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when the value is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when the value is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
