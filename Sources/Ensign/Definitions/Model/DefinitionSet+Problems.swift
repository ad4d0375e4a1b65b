extension DefinitionSet {
    /// One warning per flag whose file configures it with an error (``FlagDefinition/configurationProblem``),
    /// at the flag's declaration: the message says what its evaluations read and carries the
    /// problem's own file:line:column. Computed when asked (a status request), never on the read path.
    var configurationProblems: [Diagnostic] {
        orderedDefinitions.compactMap { definition in
            definition.configurationProblem.map {
                let consequence =
                    definition.servingProblem == nil
                    ? "is served as flagd serves it:" : "reads its code default with PARSE_ERROR:"
                return Diagnostic(
                    .warning, at: definition.location, key: definition.key,
                    "'\(definition.key)' \(consequence) \($0)")
            }
        }
    }
}
