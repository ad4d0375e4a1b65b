/// The type of a flag's or preference's value, as written in `type:`.
public enum FlagType: String, Sendable, Hashable, CaseIterable {
    /// `true` / `false`.
    case bool
    /// A whole number.
    case int
    /// A floating-point number (integers are accepted and widened).
    case double
    /// Text.
    case string
    /// Any structured value: a mapping or a list.
    case object

    /// The type a value has, with ints counted as ints (not doubles); `nil` for `null`.
    public init?(of value: JSONValue) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .int: self = .int
        case .double: self = .double
        case .string: self = .string
        case .array, .object: self = .object
        }
    }

    /// "a bool", "an int", … for messages.
    public var withArticle: String {
        switch self {
        case .bool: return "a bool"
        case .int: return "an int"
        case .double: return "a double"
        case .string: return "a string"
        case .object: return "an object"
        }
    }

    /// The value converted to this type when it already is one (an int is a valid double),
    /// or `nil` when it is not.
    public func coerce(_ value: JSONValue) -> JSONValue? {
        switch (self, value) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.string, .string): return value
        case (.double, .int(let integer)): return .double(Double(integer))
        case (.int, .double(let double)):
            guard let exact = Int(exactly: double) else { return nil }
            return .int(exact)
        case (.object, .object), (.object, .array): return value
        default: return nil
        }
    }
}
