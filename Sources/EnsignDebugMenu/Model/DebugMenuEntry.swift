import Ensign

/// One key as a debug menu shows it: its value now, where that value came from, and whether
/// something overrides it.
///
/// The terminal menu (`ensign menu`) and the in-app menu (``DebugMenuModel``) list the same
/// entries, read from a ``DebugMenuBackend``.
///
/// ```swift
/// let entries = try ContextDebugMenuBackend(context: context).entries()
/// for entry in entries where entry.isOverridden { print(entry.key, entry.value.jsonText) }
/// ```
public struct DebugMenuEntry: Equatable, Sendable, Identifiable {
    /// The full key, as written in the definitions.
    public var key: String
    /// The flag's type as the files name it: `bool`, `int`, `double`, `string`, `object`.
    public var type: String
    /// The value in force; `.null` when the code default applies.
    public var value: JSONValue
    /// The OpenFeature reason for the value (`STATIC`, `TARGETING_MATCH`, `OVERRIDE`, …).
    public var reason: String
    /// Whether an override (the app's, the CLI's, or a child context's) decides the value.
    public var isOverridden: Bool
    /// The definition's one-line description; empty when it has none.
    public var summary: String

    /// Creates an entry.
    public init(key: String, type: String, value: JSONValue, reason: String, isOverridden: Bool, summary: String) {
        self.key = key
        self.type = type
        self.value = value
        self.reason = reason
        self.isOverridden = isOverridden
        self.summary = summary
    }

    /// The key, which identifies the entry in a list.
    public var id: String { key }

    /// The namespace the key is grouped under: its first segment.
    public var group: String {
        key.split(separator: ".", maxSplits: 1).first.map(String.init) ?? key
    }

    /// Whether the entry is a bool, which a menu flips instead of editing.
    public var isToggleable: Bool { type == "bool" }

    /// The type with its article, for a sentence: `an int`, `a bool`, `an object`.
    public var typeWithArticle: String {
        let startsWithVowel = type.first.map { "aeiou".contains($0) } ?? false
        return (startsWithVowel ? "an " : "a ") + type
    }

    /// Whether a switch for the entry shows on: the bool's value, `false` for any other value.
    public var isOn: Bool { value.boolValue ?? false }

    /// The value as a person would type it in an edit field: strings without their quotes,
    /// nothing for no value, JSON text for the rest.
    public var editableText: String {
        if value.isNull { return "" }
        return value.stringValue ?? value.jsonText
    }
}
