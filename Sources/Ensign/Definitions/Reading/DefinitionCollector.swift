import EnsignYAML

/// Gathers the definitions of several files, reporting keys and evaluators defined twice.
struct DefinitionCollector {
    var definitions: [FlagDefinition] = []
    var evaluators: [String: LocatedValue] = [:]
    var evaluatorNodes: [String: YAMLNode] = [:]
    var diagnostics: [Diagnostic] = []
    /// The errors among ``diagnostics`` confined to one flag, which still loads.
    var flagErrors: [Diagnostic] = []
    /// The keys collected so far: one hash per definition (a duplicate, rare, finds its first
    /// definition by a scan).
    private var collectedKeys = Set<ExactText>()

    mutating func add(_ reader: DefinitionFileReader) {
        diagnostics += reader.diagnostics
        flagErrors += reader.flagErrors
        collectedKeys.reserveCapacity(collectedKeys.count + reader.definitions.count)
        for definition in reader.definitions {
            if !collectedKeys.insert(ExactText(definition.key)).inserted,
                let first = definitions.first(where: { $0.key.isExactly(definition.key) })
            {
                diagnostics.append(
                    Diagnostic(
                        .error, at: definition.location, key: definition.key,
                        "'\(definition.key)' is defined twice; each key is defined in exactly one place",
                        notes: [
                            Diagnostic(.note, at: first.location, key: first.key, "'\(first.key)' first defined here")
                        ]))
            } else {
                definitions.append(definition)
            }
        }
        for (name, rule, node) in reader.evaluators {
            if let first = evaluators[name] {
                diagnostics.append(
                    Diagnostic(
                        .error, at: rule.location, "evaluator '\(name)' is defined twice",
                        notes: [Diagnostic(.note, at: first.location, "first defined here")]))
            } else {
                evaluators[name] = rule
                evaluatorNodes[name] = node
            }
        }
    }
}
