/// Loads definitions and overlays from files or in-memory sources, collecting every problem.
///
/// A definitions directory holds `*.yaml`, `*.yml` and `*.json` definitions files, and
/// environment overlays in `environments/<name>.yaml`. Symbolic links are followed and names
/// starting with `.` are skipped, which is how a Kubernetes ConfigMap volume looks (its
/// files are links into a hidden `..data` directory).
///
/// ```swift
/// let loaded = DefinitionLoader().loadDirectory("flags")
/// for diagnostic in loaded.diagnostics { print(diagnostic) }
/// let production = loaded.environments["production"]
/// ```
public struct DefinitionLoader: Sendable {
    /// The YAML limits applied to every file.
    public var limits: YAMLLimits
    /// The day `expires:` is compared with.
    public var today: CalendarDay
    /// How targeting rules are compiled (for example, which `fractional` hashing to use).
    public var targetingOptions: TargetingOptions

    /// Creates a loader.
    public init(
        limits: YAMLLimits = YAMLLimits(), today: CalendarDay = .today(),
        targetingOptions: TargetingOptions = TargetingOptions()
    ) {
        self.limits = limits
        self.today = today
        self.targetingOptions = targetingOptions
    }

    /// The file extensions read from a directory.
    public static let fileExtensions = ["yaml", "yml", "json"]

    /// Loads a definitions directory and all of its environment overlays.
    public func loadDirectory(_ path: String) -> DirectoryLoadResult {
        guard ConfigDirectory.isDirectory(path) else {
            return DirectoryLoadResult(
                definitions: .empty, environments: [:],
                diagnostics: [Diagnostic(.error, at: .unknown(path), "no such directory")])
        }
        let report = ConfigValidator(loader: self).validate(paths: [path])
        return DirectoryLoadResult(
            definitions: report.definitions, environments: report.environments, diagnostics: report.diagnostics)
    }

    /// Loads definitions from sources (files already read, or in-memory text).
    public func loadDefinitions(from sources: [ConfigSource]) -> DefinitionLoadResult {
        var diagnostics: [Diagnostic] = []
        var parsed: [ParsedFile] = []
        for source in sources {
            do {
                parsed.append(ParsedFile(name: source.name, documents: try parse(source)))
            } catch {
                diagnostics.append(Diagnostic(error))
            }
        }
        var result = loadDefinitions(consume parsed)
        result.diagnostics = (diagnostics + result.diagnostics).sortedByLocation()
        return result
    }

    /// A file that has been parsed but not yet interpreted.
    struct ParsedFile {
        var name: String
        var documents: [YAMLNode]
    }

    func parse(_ source: ConfigSource) throws(YAMLError) -> [YAMLNode] {
        try YAMLParser(limits: limits).documents(from: source.bytes, file: source.name)
    }

    /// What a read document is replaced with.
    private static let emptyDocument = YAMLNode.null

    /// Reads parsed files into definitions. The files are consumed: each document's tree is
    /// released part by part as it is read, so loading a large file does not hold its whole
    /// tree and all its definitions at once.
    func loadDefinitions(_ files: consuming [ParsedFile]) -> DefinitionLoadResult {
        var collector = DefinitionCollector()
        let names = files.map(\.name)
        for fileIndex in files.indices {
            var documents = files[fileIndex].documents
            files[fileIndex].documents = []
            if documents.isEmpty {
                collector.diagnostics.append(
                    Diagnostic(
                        .error, at: SourcePosition(file: files[fileIndex].name, line: 1, column: 1),
                        "the file is empty; a definitions file needs 'flags:' or 'preferences:'"))
            }
            for documentIndex in documents.indices {
                let document = documents[documentIndex]
                documents[documentIndex] = Self.emptyDocument
                var reader = DefinitionFileReader(today: today)
                reader.read(consuming: consume document)
                collector.add(reader)
            }
        }
        var validator = FlagTargetingCompiler(
            evaluators: collector.evaluators, evaluatorNodes: collector.evaluatorNodes, options: targetingOptions)
        let definitions = collector.definitions.map { validator.compile($0) }
        validator.checkEvaluators()
        let set = DefinitionSet(definitions: definitions, evaluators: collector.evaluators, files: names)
        return DefinitionLoadResult(
            definitions: set, diagnostics: (collector.diagnostics + validator.diagnostics).sortedByLocation())
    }

    /// Checks already-parsed overlay documents against `definitions`.
    func readOverlay(_ file: ParsedFile, definitions: DefinitionSet) -> (Overlay, [Diagnostic]) {
        var reader = OverlayReader(definitions: definitions)
        let overlay = reader.read(file.documents, source: file.name)
        return (overlay, reader.diagnostics.sortedByLocation())
    }

    /// Reads an overlay and checks its values against `definitions`.
    public func readOverlay(_ source: ConfigSource, definitions: DefinitionSet) -> (Overlay, [Diagnostic]) {
        do {
            return readOverlay(ParsedFile(name: source.name, documents: try parse(source)), definitions: definitions)
        } catch {
            return (Overlay(source: source.name), [Diagnostic(error)])
        }
    }

}

/// Gathers the definitions of several files, reporting keys and evaluators defined twice.
struct DefinitionCollector {
    var definitions: [FlagDefinition] = []
    var evaluators: [String: LocatedValue] = [:]
    var evaluatorNodes: [String: YAMLNode] = [:]
    var diagnostics: [Diagnostic] = []
    private var firstDefinition: [String: FlagDefinition] = [:]

    mutating func add(_ reader: DefinitionFileReader) {
        diagnostics += reader.diagnostics
        for definition in reader.definitions {
            if let first = firstDefinition[definition.key] {
                diagnostics.append(
                    Diagnostic(
                        .error, at: definition.location, key: definition.key,
                        "'\(definition.key)' is defined twice; each key is defined in exactly one place",
                        notes: [
                            Diagnostic(.note, at: first.location, key: first.key, "'\(first.key)' first defined here")
                        ]))
            } else {
                firstDefinition[definition.key] = definition
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

/// Definitions loaded from sources, with every problem found.
public struct DefinitionLoadResult: Sendable {
    /// The definitions that could be read (a key defined twice keeps its first definition).
    public var definitions: DefinitionSet
    /// Every problem, in the order found.
    public var diagnostics: [Diagnostic]
}

/// A definitions directory: its definitions, its environment overlays, and every problem.
public struct DirectoryLoadResult: Sendable {
    /// The definitions.
    public var definitions: DefinitionSet
    /// `environments/<name>.yaml` overlays by environment name.
    public var environments: [String: Overlay]
    /// Every problem found.
    public var diagnostics: [Diagnostic]
}

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
