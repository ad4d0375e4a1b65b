/// A typed key for a flag, with the value to use when no file defines it (the code default).
///
/// Declare keys once, as static members, and read them through a context's subscript:
///
/// ```swift
/// extension FlagKey where Value == Bool {
///     static let showPendingList = FlagKey("beneficiaries.showPendingList", default: false)
/// }
///
/// let isShown = context[.showPendingList]
/// ```
///
/// App code cannot write a flag's value directly; it sets an override
/// (`setOverride(_:to:)`), which is visible as such in `details(for:)`.
public struct FlagKey<Value: FlagValueConvertible>: Sendable {
    /// The key as written in definitions files (full, or relative to a scope's prefix).
    public var name: String { identity.name }
    /// The code default: the value when no layer has one, the key is undefined, or the
    /// value in the files has another type.
    public let defaultValue: Value
    /// The key's identity, shared by its copies.
    public let identity: KeyIdentity

    /// Creates a key.
    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        self.identity = KeyIdentity(name: name, kind: .flag)
    }
}

/// A typed key for a user preference: like ``FlagKey``, but the app sets its value with
/// `setPreference(_:to:)` and the user's choice wins over every file.
///
/// ```swift
/// extension UserPreferenceKey where Value == Bool {
///     static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
/// }
/// try context.setPreference(.darkMode, to: true)
/// ```
public struct UserPreferenceKey<Value: FlagValueConvertible>: Sendable {
    /// The key as written in definitions files.
    public var name: String { identity.name }
    /// The code default.
    public let defaultValue: Value
    /// The key's identity, shared by its copies.
    public let identity: KeyIdentity

    /// Creates a key.
    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        self.identity = KeyIdentity(name: name, kind: .preference)
    }
}

/// What flag and preference keys have in common, so APIs can take either.
///
/// Only ``FlagKey`` and ``UserPreferenceKey`` conform; do not conform other types.
public protocol ContextKey<Value>: Sendable {
    /// The value type.
    associatedtype Value: FlagValueConvertible
    /// The key's name.
    var name: String { get }
    /// The code default.
    var defaultValue: Value { get }
    /// The key's identity.
    var identity: KeyIdentity { get }
}

extension FlagKey: ContextKey {}
extension UserPreferenceKey: ContextKey {}
