/// Definitions loaded from sources, with every problem found.
package struct DefinitionLoadResult: Sendable {
    /// The definitions that could be read (a key defined twice keeps its first definition).
    package var definitions: DefinitionSet
    /// Every problem, in reading order: what `ensign validate` reports.
    package var diagnostics: [Diagnostic]
    /// The errors among ``diagnostics`` confined to one flag: a targeting rule (or an
    /// `$evaluators` entry it uses) that does not compile, a `defaultVariant` that names no
    /// variant.
    ///
    /// Such a flag still loads and evaluates as flagd's evaluators do, failing only where an
    /// evaluation meets the problem (see ``FlagDefinition/configurationProblem``), so these do
    /// not stop a context loading.
    package var flagErrors: [Diagnostic] = []

    /// ``diagnostics`` as a running context reports them: errors confined to one flag become
    /// warnings, since the context loads with them.
    package var runtimeDiagnostics: [Diagnostic] { diagnostics.demoting(flagErrors) }
}

/// A definitions directory loaded for one environment: its definitions, that environment's
/// overlay, and every problem.
package struct DirectoryLoadResult: Sendable {
    /// The definitions.
    package var definitions: DefinitionSet
    /// The `environments/<name>.yaml` overlay of the environment asked for, when it has one.
    package var environmentOverlay: Overlay?
    /// Every environment the directory mentions, sorted: `environments/<name>.yaml` files and
    /// inline `environments:` values.
    package var knownEnvironments: [String]
    /// Every problem found, in reading order.
    package var diagnostics: [Diagnostic]
    /// The errors among ``diagnostics`` confined to one flag (see
    /// ``DefinitionLoadResult/flagErrors``).
    package var flagErrors: [Diagnostic] = []

    /// ``diagnostics`` as a running context reports them: errors confined to one flag become warnings.
    package var runtimeDiagnostics: [Diagnostic] { diagnostics.demoting(flagErrors) }
}

extension Array where Element == Diagnostic {
    /// The diagnostics with those in `errors` turned into warnings (same message and notes).
    func demoting(_ errors: [Diagnostic]) -> [Diagnostic] {
        guard !errors.isEmpty else { return self }
        let demoted = Set(errors)
        return map { diagnostic in
            guard demoted.contains(diagnostic) else { return diagnostic }
            var warning = diagnostic
            warning.severity = .warning
            return warning
        }
    }
}
