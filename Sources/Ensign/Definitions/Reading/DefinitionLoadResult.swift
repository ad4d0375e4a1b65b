/// Definitions loaded from sources, with every problem found.
public struct DefinitionLoadResult: Sendable {
    /// The definitions that could be read (a key defined twice keeps its first definition).
    public var definitions: DefinitionSet
    /// Every problem, in reading order: what `ensign validate` reports.
    public var diagnostics: [Diagnostic]
    /// The errors among ``diagnostics`` confined to one flag: a targeting rule (or an
    /// `$evaluators` entry it uses) that does not compile, a `defaultVariant` that names no
    /// variant.
    ///
    /// Such a flag still loads and resolves with `PARSE_ERROR` (see
    /// ``FlagDefinition/configurationProblem``), so these do not stop a context loading.
    public var flagErrors: [Diagnostic] = []

    /// ``diagnostics`` as a running context reports them: errors confined to one flag become
    /// warnings, since the context loads with them.
    public var runtimeDiagnostics: [Diagnostic] { diagnostics.demoting(flagErrors) }
}

/// A definitions directory loaded for one environment: its definitions, that environment's
/// overlay, and every problem.
public struct DirectoryLoadResult: Sendable {
    /// The definitions.
    public var definitions: DefinitionSet
    /// The `environments/<name>.yaml` overlay of the environment asked for, when it has one.
    public var environmentOverlay: Overlay?
    /// Every environment the directory mentions, sorted: `environments/<name>.yaml` files and
    /// inline `environments:` values.
    public var knownEnvironments: [String]
    /// Every problem found, in reading order.
    public var diagnostics: [Diagnostic]
    /// The errors among ``diagnostics`` confined to one flag (see
    /// ``DefinitionLoadResult/flagErrors``).
    public var flagErrors: [Diagnostic] = []

    /// ``diagnostics`` as a running context reports them: errors confined to one flag become warnings.
    public var runtimeDiagnostics: [Diagnostic] { diagnostics.demoting(flagErrors) }
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
