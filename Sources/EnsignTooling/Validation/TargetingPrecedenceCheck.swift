import Ensign

/// Warns where a file sets a value that a flag's targeting decides before: targeting outranks
/// the environment and deployment layers, so such a value applies only where the rule returns
/// `null` (an environment file that says "on for everyone" is not, where the rule matches).
enum TargetingPrecedenceCheck {
    /// The warnings for the values `overlay` sets.
    static func check(_ overlay: Overlay, definitions: DefinitionSet) -> [Diagnostic] {
        overlay.flags.keys.sorted().compactMap { key in
            guard let definition = definitions[key], let value = overlay.flags[key] else { return nil }
            return warning(for: definition, valueAt: value.location)
        }
    }

    /// The warnings for the definitions' inline `environments:` values.
    static func checkInlineValues(_ definitions: DefinitionSet) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // Only targeted flags can warn: the others are skipped before their values are read.
        for definition in definitions.orderedDefinitions
        where definition.compiledTargeting != nil && !definition.environmentValues.isEmpty {
            // The values come sorted by environment name.
            for (_, value) in definition.environmentValues {
                if let warning = warning(for: definition, valueAt: value.location) { diagnostics.append(warning) }
            }
        }
        return diagnostics
    }

    /// A disabled flag ignores both, and a rule that does not compile is an error of its own.
    private static func warning(for definition: FlagDefinition, valueAt location: SourcePosition) -> Diagnostic? {
        guard definition.isEnabled, definition.compiledTargeting != nil, let targeting = definition.targetingLocation
        else {
            return nil
        }
        return Diagnostic(
            .warning, at: location, key: definition.key,
            "'\(definition.key)' targeting at \(targeting) decides first; this value applies only where the"
                + " rule returns null")
    }
}
