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
    /// How many of ``definitions``, from the first, are not in `collectedKeys` yet: a first
    /// document's keys are known to be unique (``DefinitionFileReader/hasUniqueKeys``), so they
    /// are hashed only if another document comes; a large single file's never are.
    private var unhashedCount = 0

    mutating func add(_ reader: DefinitionFileReader) {
        diagnostics += reader.diagnostics
        flagErrors += reader.flagErrors
        if definitions.isEmpty, reader.hasUniqueKeys {
            definitions = reader.definitions
            unhashedCount = definitions.count
        } else {
            addChecked(reader.definitions)
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

    /// Adds `newDefinitions`, reporting each key defined before (and leaving that one out).
    private mutating func addChecked(_ newDefinitions: [FlagDefinition]) {
        collectedKeys.reserveCapacity(definitions.count + newDefinitions.count)
        for definition in definitions.prefix(unhashedCount) { collectedKeys.insert(ExactText(definition.key)) }
        unhashedCount = 0
        for definition in newDefinitions {
            if !collectedKeys.insert(ExactText(definition.key)).inserted,
                let first = definitions.first(where: { $0.key.isExactly(definition.key) })
            {
                diagnostics.append(
                    .clash(
                        "'\(definition.key)' is defined twice; each key is defined in exactly one place",
                        at: definition, with: first, note: "'\(first.key)' first defined here"))
            } else {
                definitions.append(definition)
            }
        }
    }
}
