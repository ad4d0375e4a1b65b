/// A typed key for a flag or a user preference, with the value to use when no file defines
/// it (the code default); `Kind` says which of the two it is.
///
/// App code names the two kinds through ``FlagKey`` and ``UserPreferenceKey``. Declare keys
/// once, as static members of the specialised type, and read them through a context's
/// subscript with implicit member syntax:
///
/// ```swift
/// extension FlagKey<Bool> {
///     static let showPendingList = FlagKey("beneficiaries.showPendingList", default: false)
/// }
/// extension UserPreferenceKey<Bool> {
///     static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
/// }
///
/// let isShown = context[.showPendingList]
/// try context.setPreference(.darkMode, to: true)
/// ```
///
/// Write the extension as `extension FlagKey<Bool>`, which binds both parameters. The older
/// `extension FlagKey where Value == Bool` constrains only `Value`, so it extends
/// `ContextKey<Bool, Kind>` for every kind, a type still generic in `Kind`, where Swift does
/// not allow static stored properties (and would offer a computed key to both kinds).
///
/// Reads, observation, details and overrides take either kind, as one generic API. Writes
/// that make sense for one kind only take that kind: `setPreference(_:to:)` takes only a
/// ``UserPreferenceKey``, so a flag's value cannot be set as if it were the user's choice.
public struct ContextKey<Value: FlagValueConvertible, Kind: KeyKind>: Sendable {
    /// The key as written in definitions files (full, or relative to a scope's prefix).
    public var name: String { identity.name }
    /// The code default: the value when no layer has one, the key is undefined, or the
    /// value in the files has another type.
    public let defaultValue: Value
    /// The key's identity, shared by its copies.
    @usableFromInline
    package let identity: KeyIdentity

    /// Creates a key: `FlagKey("pageSize", default: 20)`.
    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        self.identity = KeyIdentity(name: name, kind: Kind.definitionKind)
    }
}

/// A typed key for a flag: the developers' and operators' choice, which app code can
/// override (`setOverride(_:to:)`, visible as such in `details(for:)`) but not set.
///
/// ```swift
/// extension FlagKey<Int> {
///     static let pageSize = FlagKey("beneficiaries.pageSize", default: 20)
/// }
/// let pageSize = context[.pageSize]
/// ```
public typealias FlagKey<Value: FlagValueConvertible> = ContextKey<Value, FlagKeyKind>

/// A typed key for a user preference: like ``FlagKey``, but the app sets its value with
/// `setPreference(_:to:)` and the user's choice wins over every file.
///
/// ```swift
/// extension UserPreferenceKey<Bool> {
///     static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
/// }
/// try context.setPreference(.darkMode, to: true)
/// ```
public typealias UserPreferenceKey<Value: FlagValueConvertible> = ContextKey<Value, PreferenceKeyKind>

/// The kind of a ``ContextKey``: ``FlagKeyKind`` or ``PreferenceKeyKind``.
///
/// A marker for the type system, so that an API can take keys of one kind only. Only the
/// two enums in this library conform; do not conform other types: a key of another kind
/// would be accepted only by the APIs open to every kind.
///
/// The kinds are named `…KeyKind` rather than `FlagKind`: that shorter name reads as a flag's
/// value type (bool, string, …), and is one that apps (and this package's tests) already use.
public protocol KeyKind: Sendable {}

/// The kind of a ``FlagKey``: declared under `flags:`. Never instantiated.
public enum FlagKeyKind: KeyKind {}

/// The kind of a ``UserPreferenceKey``: declared under `preferences:`. Never instantiated.
public enum PreferenceKeyKind: KeyKind {}

extension KeyKind {
    /// Where keys of this kind are declared in definitions files: only the two kinds above
    /// conform, so a kind that is not the preferences' is the flags'.
    package static var definitionKind: FlagDefinition.Kind { self == PreferenceKeyKind.self ? .preference : .flag }
}
