import EnsignYAML

/// Whether a configuration file declares keys (definitions) or sets values for them (an overlay).
///
/// Inside a definitions directory the place decides: top-level files are definitions and
/// `environments/*.yaml` are overlays. For a file named on its own (as `ensign validate`
/// allows) the content decides: a file is a definitions file when it has `version`,
/// `namespace`, `$evaluators`, `$schema` or `metadata` at the top, or when an entry under
/// `flags:`/`preferences:` is a mapping with a definition field (`type`, `default`,
/// `variants`, `state`, `defaultVariant`). Give definitions files `version: 1` to be explicit.
package enum ConfigFileKind: String, Sendable, Hashable {
    /// Declares flags and preferences.
    case definitions
    /// Sets values for keys declared elsewhere.
    case overlay

    static let definitionMarkers: Set = ["version", "namespace", "$evaluators", "$schema", "metadata"]
    static let definitionFields: Set = ["type", "default", "variants", "state", "defaultVariant"]

    /// The kind of a parsed document, by the rule above.
    package init(detecting root: YAMLNode) {
        guard let entries = root.mappingEntries else {
            self = .definitions
            return
        }
        for entry in entries {
            guard let name = entry.key.scalarText else { continue }
            if Self.definitionMarkers.contains(name) {
                self = .definitions
                return
            }
            guard name == "flags" || name == "preferences", let keys = entry.value.mappingEntries else { continue }
            let declares = keys.contains { keyEntry in
                keyEntry.value.mappingEntries?.contains {
                    $0.key.scalarText.map(Self.definitionFields.contains) ?? false
                } ?? false
            }
            if declares {
                self = .definitions
                return
            }
        }
        self = .overlay
    }
}
