/// Values that override definitions' defaults: an environment file, a deployment file, the
/// user's preferences file or persisted debug overrides. Keys are always full keys.
///
/// ```yaml
/// flags:
///   beneficiaries.showPendingList: true
/// preferences:
///   appearance.darkMode: true
/// ```
package struct Overlay: Sendable {
    /// The file the values came from (or a label for in-memory overlays).
    package let source: String
    /// Flag values by full key.
    package var flags: [String: LocatedValue]
    /// Preference values by full key.
    package var preferences: [String: LocatedValue]
    /// Values under `flags:` for keys that no definition declares: not applied, but kept so
    /// that rewriting the file (preferences, persisted overrides) does not lose them.
    package var ignoredFlags: [String: LocatedValue] = [:]
    /// Values under `preferences:` for keys that no definition declares.
    package var ignoredPreferences: [String: LocatedValue] = [:]

    /// Creates an overlay.
    package init(source: String, flags: [String: LocatedValue] = [:], preferences: [String: LocatedValue] = [:]) {
        self.source = source
        self.flags = flags
        self.preferences = preferences
    }

    /// Whether the overlay sets nothing.
    package var isEmpty: Bool { flags.isEmpty && preferences.isEmpty }

    /// The value for `key` from the section matching `kind`.
    package func value(for key: String, kind: FlagDefinition.Kind) -> LocatedValue? {
        kind == .flag ? flags[key] : preferences[key]
    }
}
