import EnsignSupport
import EnsignYAML

/// Reads an overlay document (`flags:` and `preferences:` with full keys) and checks each
/// value against the definitions: type, `enum`, bounds, and flag-versus-preference section.
///
/// Values for keys that are not defined are not applied; they are kept in
/// ``Overlay/ignoredFlags`` and ``Overlay/ignoredPreferences`` (a newer app version may
/// define them) and reported as warnings.
struct OverlayReader {
    let definitions: DefinitionSet
    var diagnostics: [Diagnostic] = []

    init(definitions: DefinitionSet) {
        self.definitions = definitions
    }

    static let sections = ["flags", "preferences"]

    mutating func read(_ documents: [YAMLNode], source: String) -> Overlay {
        var overlay = Overlay(source: source)
        if documents.count > 1 {
            diagnostics.append(
                Diagnostic(
                    .error, at: documents[1].location, "an overlay file holds one document; found \(documents.count)"))
        }
        guard let root = documents.first else { return overlay }
        if case .scalar = root.content, root.resolvedScalar == .null { return overlay }
        guard let entries = root.mappingEntries else {
            diagnostics.append(
                Diagnostic(
                    .error, at: root.location,
                    "an overlay file must be a mapping with 'flags:' and/or 'preferences:'; found \(root.kindDescription)"
                ))
            return overlay
        }
        for entry in entries {
            switch entry.key.scalarText {
            case "flags": overlay.flags = readSection(entry.value, kind: .flag, into: &overlay)
            case "preferences": overlay.preferences = readSection(entry.value, kind: .preference, into: &overlay)
            default:
                let name = entry.key.scalarText ?? "?"
                var message = "unknown top-level field '\(name)' in an overlay"
                message += Suggestions.didYouMean(name, among: Self.sections)
                if ["version", "namespace", "$evaluators"].contains(name) {
                    message += "; '\(name)' belongs in a definitions file"
                }
                diagnostics.append(Diagnostic(.error, at: entry.key.location, message))
            }
        }
        return overlay
    }

    private mutating func readSection(
        _ node: YAMLNode, kind: FlagDefinition.Kind, into overlay: inout Overlay
    ) -> [String: LocatedValue] {
        if case .scalar = node.content, node.resolvedScalar == .null { return [:] }
        guard let entries = node.mappingEntries else {
            let section = kind == .flag ? "flags" : "preferences"
            diagnostics.append(
                Diagnostic(
                    .error, at: node.location,
                    "'\(section)' must be a mapping of full keys to values; found \(node.kindDescription)"))
            return [:]
        }
        var values: [String: LocatedValue] = [:]
        values.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.scalarText else {
                diagnostics.append(Diagnostic(.error, at: entry.key.location, "a key must be a string"))
                continue
            }
            guard let definition = definitions[key] else {
                let value = LocatedValue(JSONValue(entry.value), at: entry.value.compactPosition)
                if kind == .flag { overlay.ignoredFlags[key] = value } else { overlay.ignoredPreferences[key] = value }
                reportUndefined(key, entry: entry, kind: kind)
                continue
            }
            guard definition.kind == kind else {
                let (this, other) = kind == .flag ? ("flags", "preferences") : ("preferences", "flags")
                diagnostics.append(
                    Diagnostic(
                        .error, at: entry.key.location, key: key,
                        "'\(key)' is \(definition.kind == .flag ? "a flag" : "a preference"), so it belongs under"
                            + " '\(other):', not '\(this):'"))
                continue
            }
            if let value = LocatedValueReader.read(
                entry.value, rules: definition.rules, key: key, role: "value", diagnostics: &diagnostics)
            {
                values[key] = LocatedValue(value, at: entry.value.compactPosition)
            }
        }
        return values
    }

    private mutating func reportUndefined(_ key: String, entry: YAMLMappingEntry, kind: FlagDefinition.Kind) {
        var message = "no \(kind == .flag ? "flag" : "preference") '\(key)' is defined; the value is ignored"
        let nestedKeys = entry.value.mappingEntries?.compactMap { $0.key.scalarText }.map { "\(key).\($0)" } ?? []
        if let nested = nestedKeys.first(where: { definitions[$0] != nil }) {
            message += "; overlays use full dotted keys: write '\(nested): …'"
        } else {
            message += Suggestions.didYouMean(key, among: definitions.keys)
        }
        diagnostics.append(Diagnostic(.warning, at: entry.key.location, key: key, message))
    }
}
