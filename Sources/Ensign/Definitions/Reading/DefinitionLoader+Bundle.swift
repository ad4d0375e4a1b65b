import EnsignYAML

extension DefinitionLoader {
    /// Loads a definitions bundle (see `ensign export`) as ``loadDirectory(_:environment:checksEnvironment:)``
    /// loads the directory it was made from: its definitions and, when `environment` is given,
    /// that environment's overlay from the bundle.
    ///
    /// The bundle is JSON, so a build without the `YAML` trait reads it. An environment must
    /// be one the bundle mentions (an `environments` member or an inline value), as in a
    /// directory; every diagnostic names the bundle's line and column.
    ///
    /// ```swift
    /// let loaded = DefinitionLoader().loadBundle("flags.json", environment: "production")
    /// ```
    package func loadBundle(
        _ path: String, environment: String? = nil, checksEnvironment: Bool = true
    ) -> DirectoryLoadResult {
        var diagnostics: [Diagnostic] = []
        guard let file = parseFile(path, into: &diagnostics) else { return Self.failedBundle(diagnostics) }
        let bundle: DefinitionsBundle
        switch DefinitionsBundle.read(file) {
        case .success(let read): bundle = read
        case .failure(let problems): return Self.failedBundle(problems.diagnostics)
        }
        return load(bundle, path: path, environment: environment, checksEnvironment: checksEnvironment)
    }

    /// Whether the file at `path` is a definitions bundle (one object with an `ensignBundle`
    /// member), for tools that take a directory, a bundle or a single definitions file.
    package func isBundle(atPath path: String) -> Bool {
        var ignored: [Diagnostic] = []
        return parseFile(path, into: &ignored).map(DefinitionsBundle.isBundle) ?? false
    }

    /// Loads a bundle already read.
    func load(
        _ bundle: DefinitionsBundle, path: String, environment: String?, checksEnvironment: Bool
    ) -> DirectoryLoadResult {
        var diagnostics: [Diagnostic] = []
        let loaded = loadDefinitions([bundle.definitions])
        let known = KnownEnvironments(definitions: loaded.definitions, overlayNames: bundle.environments.map(\.name))
        var environmentOverlay: Overlay?
        if let environment {
            if checksEnvironment,
                let problem = known.problem(
                    with: environment, at: .unknown(path), ownFile: "'environments' member '\(environment)'")
            {
                diagnostics.append(problem)
            } else if let file = bundle.environment(named: environment) {
                let (overlay, found) = readOverlay(file, definitions: loaded.definitions)
                environmentOverlay = overlay
                diagnostics += found
            }
        }
        return DirectoryLoadResult(
            definitions: loaded.definitions, environmentOverlay: environmentOverlay,
            knownEnvironments: known.names.sorted(), diagnostics: (diagnostics + loaded.diagnostics).sortedByLocation(),
            flagErrors: loaded.flagErrors)
    }

    private static func failedBundle(_ diagnostics: [Diagnostic]) -> DirectoryLoadResult {
        DirectoryLoadResult(
            definitions: .empty, environmentOverlay: nil, knownEnvironments: [],
            diagnostics: diagnostics.sortedByLocation())
    }
}
