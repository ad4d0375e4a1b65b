extension AppContext {
    /// Loads the configured files and creates a root context.
    ///
    /// - Throws: ``AppContextLoadError`` with every diagnostic when a file has errors.
    ///   Warnings do not stop loading; they are in ``loadDiagnostics``.
    public convenience init(configuration: AppContextConfiguration) throws(AppContextLoadError) {
        try self.init(source: .directory(configuration), label: configuration.label, settings: configuration.settings)
    }

    /// Creates a context from YAML text, with no disk involved: for tests and previews.
    ///
    /// ```swift
    /// let context = try AppContext(
    ///     definitions: """
    ///         flags:
    ///           beneficiaries.showPendingList: { default: false }
    ///         """,
    ///     environment: "test")
    /// ```
    ///
    /// - Parameters:
    ///   - definitions: definitions files' contents (each string is one file).
    ///   - environmentOverlay: the environment's overlay file, if any.
    ///   - deploymentOverlays: deployment overlay files, applied in order.
    public convenience init(
        definitions: String..., environment: String = "test", environmentOverlay: String? = nil,
        deploymentOverlays: [String] = []
    ) throws(AppContextLoadError) {
        let source = ConfigurationSource.memory(
            definitions: definitions.enumerated().map {
                ConfigSource(name: "<definitions \($0.offset + 1)>", text: $0.element)
            },
            environment: environment,
            environmentOverlay: environmentOverlay.map { ConfigSource(name: "<environment \(environment)>", text: $0) },
            deploymentOverlays: deploymentOverlays.enumerated().map {
                ConfigSource(name: "<deployment \($0.offset + 1)>", text: $0.element)
            })
        try self.init(source: source, label: "root", settings: ContextSettings())
    }

    /// Creates a context whose definitions are inferred from plain values (each key's type
    /// and default come from its value): the quickest context for a test.
    ///
    /// ```swift
    /// let context = AppContext(values: ["beneficiaries.showPendingList": true, "beneficiaries.pageSize": 50])
    /// ```
    public convenience init(values: [String: JSONValue], environment: String = "test") {
        let definitions = values.keys.sorted().compactMap { key -> FlagDefinition? in
            guard let type = FlagType(of: values[key]!) else { return nil }
            return FlagDefinition(inMemoryKey: key, type: type, default: values[key]!)
        }
        let set = DefinitionSet(definitions: definitions)
        let source = ConfigurationSource(environment: environment) {
            ConfigurationSource.Loaded(
                definitions: set, environmentOverlay: nil, deploymentOverlays: [], diagnostics: [])
        }
        // Values of a known type cannot fail to load.
        try! self.init(source: source, label: "root", settings: ContextSettings())
    }

    convenience init(source: ConfigurationSource, label: String, settings: ContextSettings) throws(AppContextLoadError)
    {
        let loaded = source.load()
        guard !loaded.diagnostics.containsErrors else { throw AppContextLoadError(diagnostics: loaded.diagnostics) }
        let inputs = ContextInputs(
            layout: KeyLayout(definitions: loaded.definitions), environment: source.environment,
            environmentOverlay: loaded.environmentOverlay, deploymentOverlays: loaded.deploymentOverlays)
        let store = ContextStore(label: label, inputs: inputs, settings: settings, source: source)
        store.loadDiagnostics = loaded.diagnostics
        self.init(store: store, keyPrefix: nil)
    }

    /// Warnings found when the files were last loaded.
    public var loadDiagnostics: [Diagnostic] { rootStore.loadDiagnostics }

    /// Reads every file again and applies the result as one transaction.
    ///
    /// A reload that finds errors changes nothing: the last good values stay in force, the
    /// context's ``status`` becomes degraded with the diagnostics, and the change log records
    /// the failure. The next good reload recovers.
    ///
    /// - Returns: the diagnostics of this reload (empty when everything is clean).
    @discardableResult
    public func reload() -> [Diagnostic] {
        let store = rootStore
        guard let source = store.source else { return [] }
        let loaded = source.load()
        let files = loaded.definitions.files
        guard !loaded.diagnostics.containsErrors else {
            store.recordFailedReload(loaded.diagnostics, files: files)
            return loaded.diagnostics
        }
        store.loadDiagnostics = loaded.diagnostics
        store.setStatus(.healthy)
        store.commit(cause: .reload(files: files), affecting: .all) { inputs in
            inputs.layout = KeyLayout(definitions: loaded.definitions)
            inputs.environmentOverlay = loaded.environmentOverlay
            inputs.deploymentOverlays = loaded.deploymentOverlays
        }
        return loaded.diagnostics
    }
}
