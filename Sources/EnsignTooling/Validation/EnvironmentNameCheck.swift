import Ensign
import EnsignSupport

/// Warns about inline `environments:` names that match no known environment (a typo there
/// silently never applies).
package enum EnvironmentNameCheck {
    static let conventionalNames: Set = ["development", "staging", "production", "test"]

    package static func check(_ definitions: DefinitionSet, knownEnvironments: Set<String>) -> [Diagnostic] {
        let known = conventionalNames.union(knownEnvironments)
        var diagnostics: [Diagnostic] = []
        // In key order (the set's own order), names first: a position is built only for a warning.
        for definition in definitions.orderedDefinitions where !definition.environmentValues.isEmpty {
            let values = definition.environmentValues
            for name in values.keys where !known.contains(name) {
                guard let value = values[name] else { continue }
                let key = definition.key
                diagnostics.append(
                    Diagnostic(
                        .warning, at: value.location, key: key,
                        "'\(key)' has a value for environment '\(name)', which has no file in environments/"
                            + " and is not a conventional name" + Suggestions.didYouMean(name, among: known)))
            }
        }
        return diagnostics
    }
}
