extension AppContext {
    /// Loads the configured files and creates a root context.
    ///
    /// The preferences and overrides files are read too (an unusable one is set aside and
    /// reported in ``loadDiagnostics``, never overwritten), and, unless
    /// ``AppContextConfiguration/watchesFiles`` is off, every file is watched and reloaded
    /// when it changes.
    ///
    /// Only the files the context resolves are read: the definitions, its environment's own
    /// overlay and the deployment files. A targeting rule that does not compile does not stop
    /// loading: its flag reads the code default with `PARSE_ERROR`, and the rule's position is
    /// in ``loadDiagnostics`` (as a warning; `ensign validate` reports it as an error).
    ///
    /// - Throws: ``AppContextLoadError`` with every diagnostic when a file has errors, or when
    ///   no file mentions the environment (the error lists the ones they do). Warnings do not
    ///   stop loading; they are in ``loadDiagnostics``.
    public convenience init(configuration: AppContextConfiguration) throws(AppContextLoadError) {
        let loader = ContextLoader(
            source: .directory(configuration),
            preferencesFile: configuration.preferencesFile.map {
                PersistentOverlayFile(path: $0, coalescingDelay: configuration.persistenceCoalescingDelay)
            },
            overridesFile: configuration.overridesFile.map {
                PersistentOverlayFile(path: $0, coalescingDelay: configuration.persistenceCoalescingDelay)
            })
        try self.init(loader: loader, label: configuration.label, settings: configuration.settings)
        if configuration.watchesFiles { rootStore.startWatching(configuration) }
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
    ///   - environment: the environment to resolve for: `test` (always accepted), or one the
    ///     strings mention (`environmentOverlay` is its overlay, or an inline `environments:`
    ///     value names it); strings that mention no environment accept any name.
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
        let loader = ContextLoader(source: source, preferencesFile: nil, overridesFile: nil)
        try self.init(loader: loader, label: "root", settings: ContextSettings())
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
        let source = ConfigurationSource(environment: environment) { _ in
            ConfigurationSource.Loaded(
                definitions: set, environmentOverlay: nil, deploymentOverlays: [], diagnostics: [])
        }
        let loader = ContextLoader(source: source, preferencesFile: nil, overridesFile: nil)
        // Values of a known type cannot fail to load.
        try! self.init(loader: loader, label: "root", settings: ContextSettings())
    }

    convenience init(loader: ContextLoader, label: String, settings: ContextSettings) throws(AppContextLoadError) {
        let loaded = loader.source.load(.start)
        guard !loaded.diagnostics.containsErrors else { throw AppContextLoadError(diagnostics: loaded.diagnostics) }
        let inputs = ContextInputs(
            layout: KeyLayout(definitions: loaded.definitions), environment: loader.source.environment,
            environmentOverlay: loaded.environmentOverlay, deploymentOverlays: loaded.deploymentOverlays)
        var diagnostics = loaded.diagnostics
        var state = RootState(inputs: inputs, sequence: 1)
        // Both state directories are checked before either file is read or written.
        let unsafe = loader.unsafeStateDirectories()
        guard unsafe.isEmpty else { throw AppContextLoadError(diagnostics: unsafe) }
        let preferences = loader.loadPreferences(definitions: loaded.definitions)
        let overrides = loader.loadOverrides(definitions: loaded.definitions)
        let refusals = [preferences?.refusal, overrides?.refusal].compactMap { $0 }
        guard refusals.isEmpty else { throw AppContextLoadError(diagnostics: refusals) }
        if let preferences {
            state.inputs.preferences = preferences.values
            state.preferencesOnDisk = preferences.onDisk
            diagnostics += preferences.diagnostics
        }
        if let overrides {
            state.inputs.overrides = overrides.values
            state.overridesOnDisk = overrides.onDisk
            diagnostics += overrides.diagnostics
        }
        let store = ContextStore(label: label, state: state, settings: settings, loader: loader)
        for (file, area) in [
            (loader.preferencesFile, RootState.ProblemArea.preferencesWrite), (loader.overridesFile, .overridesWrite),
        ] {
            file?.onProblem { [weak store] problem in store?.recordLoadProblems([problem]) }
            file?.onWriteOutcome { [weak store] outcome in store?.recordSave(of: area, outcome) }
        }
        store.loadDiagnostics = diagnostics
        if !diagnostics.isEmpty { store.recordLoadProblems(diagnostics) }
        self.init(store: store, keyPrefix: nil)
    }

    /// Warnings found when the files were last loaded (and problems with the preferences or
    /// overrides file, which was set aside).
    public var loadDiagnostics: [Diagnostic] { rootStore.loadDiagnostics }

    /// How many times the root context read its files again, and how many of those reloads
    /// failed in some part (keeping the last good values): for a server's metrics.
    package var reloadCounts: (reloads: Int, failures: Int) {
        (rootStore.reloadCount.load(ordering: .relaxed), rootStore.failedReloadCount.load(ordering: .relaxed))
    }

    /// Reads every file again and applies the result as one transaction.
    ///
    /// The files form three parts, each applied or failed on its own: the definitions side
    /// (definitions, environment overlay, deployment files), the preferences file and the
    /// overrides file. A part with errors changes nothing: its last good values stay in force,
    /// the context's ``status`` becomes degraded with the diagnostics, and the change log
    /// records the failure; the parts that read cleanly are still applied, so a bad
    /// preferences file does not hold back a fixed definitions file. The next good reload of
    /// a failed part recovers it. A reload replaces only what it read:
    /// overrides, preferences and scope overrides set in memory stay as they were written
    /// (an external edit of the overrides or preferences file is applied key by key, for the
    /// keys whose value in the file changed).
    ///
    /// - Returns: the diagnostics of this reload (empty when everything is clean).
    @discardableResult
    public func reload() -> [Diagnostic] {
        rootStore.reload(.everything)
    }

    /// Writes pending preference and override changes to disk now (they are otherwise
    /// written shortly after each change, coalesced).
    public func flush() throws {
        try rootStore.preferencesFile?.flush()
        try rootStore.overridesFile?.flush()
    }
}
