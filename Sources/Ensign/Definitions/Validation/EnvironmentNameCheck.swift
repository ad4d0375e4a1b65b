/// Warns about inline `environments:` names that match no known environment (a typo there
/// silently never applies).
enum EnvironmentNameCheck {
    static let conventionalNames: Set = ["development", "staging", "production", "test"]

    static func check(_ definitions: DefinitionSet, knownEnvironments: Set<String>) -> [Diagnostic] {
        let known = conventionalNames.union(knownEnvironments)
        var diagnostics: [Diagnostic] = []
        for key in definitions.keys {
            guard let definition = definitions[key] else { continue }
            for (name, value) in definition.environmentValues where !known.contains(name) {
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
