/// A `Codable` type that an `object` flag or preference can be read as.
///
/// Conforming is one line; the protocol supplies the conversion through `JSONValueDecoder`
/// and `JSONValueEncoder`:
///
/// ```swift
/// struct Banner: CodableFlagValue {
///     var title: String
///     var priority: Int
/// }
///
/// extension FlagKey<Banner> {
///     static let banner = FlagKey("home.banner", default: Banner(title: "Welcome", priority: 1))
/// }
/// ```
///
/// A value in the files that does not decode as the type (a missing member, a member of the
/// wrong kind) is a type mismatch: the read returns the code default with `TYPE_MISMATCH`,
/// like any other mismatch. Name the type in the definition with `swiftType:` and
/// `ensign generate` declares the key with it.
public protocol CodableFlagValue: FlagValueConvertible, Codable {}

extension CodableFlagValue {
    /// `object`: the value is stored as a mapping (or a list).
    public static var flagType: FlagType { .object }

    /// Decodes the value with `JSONValueDecoder`; `nil` when it does not decode.
    public init?(flagValue: JSONValue) {
        guard let value = try? JSONValueDecoder().decode(Self.self, from: flagValue) else { return nil }
        self = value
    }

    /// The value encoded with `JSONValueEncoder` (`.null` in the unlikely case that encoding throws).
    public var flagValue: JSONValue { (try? JSONValueEncoder().encode(self)) ?? .null }
}

extension FlagValueConvertible {
    /// Converts a definition's default for a key that `ensign generate` declared; stops the
    /// program, naming the key, when the default cannot be read as this type.
    ///
    /// Generated code uses it for keys whose type is named with `swiftType:`: the generator
    /// cannot compile the YAML's default against the app's type, so the conversion happens
    /// when the key is first used, and a mismatch is a programming error to fix in the YAML
    /// or in the type.
    public init(generatedDefault value: JSONValue, key: String) {
        guard let converted = Self(flagValue: value) else {
            preconditionFailure(
                "The default of '\(key)' in the definitions, \(value.jsonText), cannot be read as \(Self.self);"
                    + " change the default or the type, then generate the keys again.")
        }
        self = converted
    }
}

extension CodableFlagValue {
    /// Decodes a definition's default for a key that `ensign generate` declared; stops the
    /// program, naming the key and the decoding error, when it does not decode.
    public init(generatedDefault value: JSONValue, key: String) {
        do {
            self = try JSONValueDecoder().decode(Self.self, from: value)
        } catch {
            preconditionFailure(
                "The default of '\(key)' in the definitions, \(value.jsonText), does not decode as \(Self.self):"
                    + " \(error). Change the default or the type, then generate the keys again.")
        }
    }
}
