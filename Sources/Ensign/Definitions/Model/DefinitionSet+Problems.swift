extension DefinitionSet {
    /// One warning per flag that reads `PARSE_ERROR` because its file configures it in a way
    /// that cannot be served (a targeting rule that does not compile, a `defaultVariant` that
    /// names no variant), at the flag's declaration; the message carries the problem's own
    /// file:line:column. Computed when asked (a status request), never on the read path.
    var configurationProblems: [Diagnostic] {
        orderedDefinitions.compactMap { definition in
            definition.configurationProblem.map {
                Diagnostic(
                    .warning, at: definition.location, key: definition.key,
                    "'\(definition.key)' reads its code default with PARSE_ERROR: \($0)")
            }
        }
    }
}
