/// An OpenFeature error code as OFREP sends it: `FLAG_NOT_FOUND`, `PARSE_ERROR`, …
///
/// An open set: a reader keeps a code it does not know (a newer server's), so this is a
/// string with the known codes as constants rather than a closed enumeration.
///
/// ```swift
/// if failure.errorCode == .flagNotFound { useCodeDefault() }
/// ```
public struct OFREPErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent: `FLAG_NOT_FOUND`.
    public var rawValue: String

    /// Creates a code from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The flag is not defined (404 for a single evaluation).
    public static let flagNotFound = OFREPErrorCode(rawValue: "FLAG_NOT_FOUND")
    /// The flag's configuration could not be parsed or compiled.
    public static let parseError = OFREPErrorCode(rawValue: "PARSE_ERROR")
    /// The evaluation needs a targeting key and the context has none.
    public static let targetingKeyMissing = OFREPErrorCode(rawValue: "TARGETING_KEY_MISSING")
    /// The context (or the whole request body) is not usable.
    public static let invalidContext = OFREPErrorCode(rawValue: "INVALID_CONTEXT")
    /// The value has another type than the one asked for.
    public static let typeMismatch = OFREPErrorCode(rawValue: "TYPE_MISMATCH")
    /// Any other problem.
    public static let general = OFREPErrorCode(rawValue: "GENERAL")

    /// The code's text.
    public var description: String { rawValue }
}
