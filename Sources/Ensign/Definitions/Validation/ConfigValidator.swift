/// Checks definitions directories, definitions files and overlay files together, the way
/// `ensign validate` does: definitions from every path are combined (so a key defined in two
/// places is caught) and every overlay is checked against them.
///
/// ```swift
/// let report = ConfigValidator().validate(paths: ["flags", "deploy/production.yaml"])
/// report.diagnostics.forEach { print($0) }
/// print(report.summary)  // 7 keys in 3 definitions files, 4 overlays: 1 error, 0 warnings
/// ```
public struct ConfigValidator: Sendable {
    /// The loader used for every file.
    public var loader: DefinitionLoader

    /// Creates a validator.
    public init(loader: DefinitionLoader = DefinitionLoader()) {
        self.loader = loader
    }

    /// Validates the given directories and files.
    ///
    /// - Parameters:
    ///   - paths: definitions directories and files, definitions or overlays.
    ///   - environment: when given, only that environment's overlay is checked in each
    ///     directory; otherwise every `environments/*.yaml` is.
    public func validate(paths: [String], environment: String? = nil) -> ValidationReport {
        var diagnostics: [Diagnostic] = []
        var definitionFiles: [DefinitionLoader.ParsedFile] = []
        var overlayFiles: [DefinitionLoader.ParsedFile] = []
        var environmentNames: [String: String] = [:]  // overlay file → environment
        var knownEnvironments: Set<String> = []
        func parse(_ path: String) -> DefinitionLoader.ParsedFile? {
            do {
                let source = try ConfigSource.file(path, limits: loader.limits)
                return DefinitionLoader.ParsedFile(name: path, documents: try loader.parse(source))
            } catch {
                diagnostics.append(Diagnostic(error))
                return nil
            }
        }
        for path in paths {
            guard ConfigDirectory.isDirectory(path) else {
                guard let file = parse(path) else { continue }
                let isOverlay = file.documents.first.map { ConfigFileKind(detecting: $0) == .overlay } ?? false
                if isOverlay { overlayFiles.append(file) } else { definitionFiles.append(file) }
                continue
            }
            let files = (try? ConfigDirectory.files(in: path)) ?? []
            if files.isEmpty {
                diagnostics.append(
                    Diagnostic(.warning, at: .unknown(path), "no definitions files (*.yaml, *.yml, *.json) found here"))
            }
            definitionFiles += files.compactMap(parse)
            let environmentsPath = ConfigDirectory.join(path, "environments")
            for file in (try? ConfigDirectory.files(in: environmentsPath)) ?? [] {
                let name = ConfigDirectory.baseName(file)
                knownEnvironments.insert(name)
                if environment == nil || environment == name, let parsed = parse(file) {
                    overlayFiles.append(parsed)
                    environmentNames[file] = name
                }
            }
        }
        let definitionFileNames = definitionFiles.map(\.name)
        // Handing the parsed files over lets the loader free each part of a tree once it is read.
        let loaded = loader.loadDefinitions(consume definitionFiles)
        diagnostics += loaded.diagnostics
        var overlays: [Overlay] = []
        var environments: [String: Overlay] = [:]
        for file in overlayFiles {
            let (overlay, found) = loader.readOverlay(file, definitions: loaded.definitions)
            overlays.append(overlay)
            if let name = environmentNames[file.name] { environments[name] = overlay }
            diagnostics += found
        }
        diagnostics += EnvironmentNameCheck.check(loaded.definitions, knownEnvironments: knownEnvironments)
        return ValidationReport(
            diagnostics: diagnostics.sortedByLocation(), definitions: loaded.definitions,
            definitionFiles: definitionFileNames, overlays: overlays, environments: environments)
    }
}

/// What ``ConfigValidator`` found.
public struct ValidationReport: Sendable {
    /// Every problem, in reading order.
    public var diagnostics: [Diagnostic]
    /// The combined definitions.
    public var definitions: DefinitionSet
    /// The definitions files read.
    public var definitionFiles: [String]
    /// The overlays read, in the order of the paths given.
    public var overlays: [Overlay]
    /// The environment overlays among them (`environments/<name>.yaml` in a directory), by name.
    public var environments: [String: Overlay]

    /// How many errors there are.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// How many warnings there are.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// One line: what was checked and what was found.
    public var summary: String {
        let flags = definitions.orderedDefinitions.filter { $0.kind == .flag }.count
        let preferences = definitions.count - flags
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(plural(flags, "flag")) and \(plural(preferences, "preference")) in"
            + " \(plural(definitionFiles.count, "definitions file")), \(plural(overlays.count, "overlay")):"
            + " \(plural(errorCount, "error")), \(plural(warningCount, "warning"))"
    }
}
