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

    /// Creates a loader.
    public init(limits: YAMLLimits = YAMLLimits(), today: CalendarDay = .today()) {
        self.limits = limits
        self.today = today
    }

    /// The file extensions read from a directory.
    public static let fileExtensions = ["yaml", "yml", "json"]

    /// Loads a definitions directory and all of its environment overlays.
    public func loadDirectory(_ path: String) -> DirectoryLoadResult {
        var diagnostics: [Diagnostic] = []
        let files: [String]
        do {
            files = try ConfigDirectory.files(in: path)
        } catch {
            return DirectoryLoadResult(
                definitions: .empty, environments: [:],
                diagnostics: [Diagnostic(.error, at: .unknown(path), "cannot read definitions directory: \(error)")])
        }
        if files.isEmpty {
            diagnostics.append(
                Diagnostic(.warning, at: .unknown(path), "no definitions files (*.yaml, *.yml, *.json) found here"))
        }
        let environmentFiles = (try? ConfigDirectory.files(in: ConfigDirectory.join(path, "environments"))) ?? []
        let (sources, readErrors) = readAll(files)
        let (environmentSources, environmentReadErrors) = readAll(environmentFiles)
        let definitions = loadDefinitions(from: sources)
        diagnostics += readErrors + environmentReadErrors + definitions.diagnostics
        var environments: [String: Overlay] = [:]
        for source in environmentSources {
            let (overlay, overlayDiagnostics) = readOverlay(source, definitions: definitions.definitions)
            environments[ConfigDirectory.baseName(source.name)] = overlay
            diagnostics += overlayDiagnostics
        }
        diagnostics += EnvironmentNameCheck.check(definitions.definitions, knownEnvironments: Set(environments.keys))
        return DirectoryLoadResult(
            definitions: definitions.definitions, environments: environments,
            diagnostics: diagnostics.sortedByLocation())
    }

    /// Loads definitions from sources (files already read, or in-memory text).
    public func loadDefinitions(from sources: [ConfigSource]) -> DefinitionLoadResult {
        var diagnostics: [Diagnostic] = []
        var all: [FlagDefinition] = []
        var evaluators: [String: LocatedValue] = [:]
        var firstDefinition: [String: FlagDefinition] = [:]
        for source in sources {
            let documents: [YAMLNode]
            do {
                documents = try YAMLParser(limits: limits).documents(from: source.bytes, file: source.name)
            } catch {
                diagnostics.append(Diagnostic(error))
                continue
            }
            if documents.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .error, at: SourceLocation(file: source.name, line: 1, column: 1),
                        "the file is empty; a definitions file needs 'flags:' or 'preferences:'"))
            }
            for document in documents {
                var reader = DefinitionFileReader(today: today)
                reader.read(document)
                diagnostics += reader.diagnostics
                for definition in reader.definitions {
                    if let first = firstDefinition[definition.key] {
                        diagnostics.append(Self.duplicate(definition, first: first))
                    } else {
                        firstDefinition[definition.key] = definition
                        all.append(definition)
                    }
                }
                for (name, rule) in reader.evaluators {
                    if let first = evaluators[name] {
                        diagnostics.append(
                            Diagnostic(
                                .error, at: rule.location, "evaluator '\(name)' is defined twice",
                                notes: [Diagnostic(.note, at: first.location, "first defined here")]))
                    } else {
                        evaluators[name] = rule
                    }
                }
            }
        }
        let set = DefinitionSet(definitions: all, evaluators: evaluators, files: sources.map(\.name))
        return DefinitionLoadResult(definitions: set, diagnostics: diagnostics.sortedByLocation())
    }

    /// Reads an overlay and checks its values against `definitions`.
    public func readOverlay(_ source: ConfigSource, definitions: DefinitionSet) -> (Overlay, [Diagnostic]) {
        let documents: [YAMLNode]
        do {
            documents = try YAMLParser(limits: limits).documents(from: source.bytes, file: source.name)
        } catch {
            return (Overlay(source: source.name), [Diagnostic(error)])
        }
        var reader = OverlayReader(definitions: definitions)
        let overlay = reader.read(documents, source: source.name)
        return (overlay, reader.diagnostics.sortedByLocation())
    }

    private func readAll(_ paths: [String]) -> ([ConfigSource], [Diagnostic]) {
        var sources: [ConfigSource] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            do {
                sources.append(try ConfigSource.file(path, limits: limits))
            } catch {
                diagnostics.append(Diagnostic(error))
            }
        }
        return (sources, diagnostics)
    }

    private static func duplicate(_ definition: FlagDefinition, first: FlagDefinition) -> Diagnostic {
        Diagnostic(
            .error, at: definition.location, key: definition.key,
            "'\(definition.key)' is defined twice; each key is defined in exactly one place",
            notes: [Diagnostic(.note, at: first.location, key: first.key, "'\(first.key)' first defined here")])
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
