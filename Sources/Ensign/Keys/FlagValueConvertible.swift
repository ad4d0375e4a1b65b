/// A Swift type that a flag or preference value can be read as.
///
/// Bool, Int, Double, String and ``JSONValue`` conform. A `String`-backed enum conforms by
/// declaring it (the implementation comes from the protocol):
///
/// ```swift
/// enum SortOrder: String, FlagValueConvertible { case name, recent }
/// ```
///
/// For `object` flags, a `Codable` struct conforms through `CodableFlagValue`.
public protocol FlagValueConvertible: Sendable, Equatable {
    /// The definition type values of this Swift type correspond to.
    static var flagType: FlagType { get }
    /// Converts a resolved value; `nil` when it cannot be represented (a type mismatch).
    init?(flagValue: JSONValue)
    /// The value as a ``JSONValue``, for overrides and persistence.
    var flagValue: JSONValue { get }
}

extension Bool: FlagValueConvertible {
    /// `bool`.
    public static var flagType: FlagType { .bool }
    /// Reads a `.bool`.
    public init?(flagValue: JSONValue) {
        guard case .bool(let value) = flagValue else { return nil }
        self = value
    }
    /// `.bool(self)`.
    public var flagValue: JSONValue { .bool(self) }
}

extension Int: FlagValueConvertible {
    /// `int`.
    public static var flagType: FlagType { .int }
    /// Reads an `.int` (or a whole `.double`).
    public init?(flagValue: JSONValue) {
        guard let value = flagValue.intValue else { return nil }
        self = value
    }
    /// `.int(self)`.
    public var flagValue: JSONValue { .int(self) }
}

extension Double: FlagValueConvertible {
    /// `double`.
    public static var flagType: FlagType { .double }
    /// Reads a `.double` or an `.int`.
    public init?(flagValue: JSONValue) {
        guard let value = flagValue.numericValue else { return nil }
        self = value
    }
    /// `.double(self)`.
    public var flagValue: JSONValue { .double(self) }
}

extension String: FlagValueConvertible {
    /// `string`.
    public static var flagType: FlagType { .string }
    /// Reads a `.string`.
    public init?(flagValue: JSONValue) {
        guard case .string(let value) = flagValue else { return nil }
        self = value
    }
    /// `.string(self)`.
    public var flagValue: JSONValue { .string(self) }
}

extension JSONValue: FlagValueConvertible {
    /// `object`.
    public static var flagType: FlagType { .object }
    /// Any value.
    public init?(flagValue: JSONValue) { self = flagValue }
    /// The value itself.
    public var flagValue: JSONValue { self }
}

/// An object flag read as its members: only an `.object` converts, so a flag of another type
/// reads as a `TYPE_MISMATCH` (a ``JSONValue`` key takes any value).
///
/// ```swift
/// let theme = context[FlagKey("app.theme", default: ["accent": "blue"] as [String: JSONValue])]
/// ```
extension Dictionary: FlagValueConvertible where Key == String, Value == JSONValue {
    /// `object`.
    public static var flagType: FlagType { .object }
    /// Reads an `.object`.
    public init?(flagValue: JSONValue) {
        guard case .object(let members) = flagValue else { return nil }
        self = members
    }
    /// `.object(self)`.
    public var flagValue: JSONValue { .object(self) }
}

extension FlagValueConvertible where Self: RawRepresentable, RawValue == String {
    /// `string`: the enum is stored as its raw value.
    public static var flagType: FlagType { .string }
    /// Reads a `.string` that is one of the enum's raw values.
    public init?(flagValue: JSONValue) {
        guard case .string(let raw) = flagValue else { return nil }
        self.init(rawValue: raw)
    }
    /// `.string(rawValue)`.
    public var flagValue: JSONValue { .string(rawValue) }
}
