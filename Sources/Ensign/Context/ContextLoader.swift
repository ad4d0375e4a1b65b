/// Loads everything a root context resolves from: definitions and overlays from their
/// source, and the user's preferences and persisted overrides from their files. Used at
/// start-up and for every reload, so both read files the same way.
struct ContextLoader: Sendable {
    let source: ConfigurationSource
    let preferencesFile: PersistentOverlayFile?
    let overridesFile: PersistentOverlayFile?

    static let preferencesActor = "preferences file"
    static let overridesActor = "overrides file"

    /// Values read from a persisted file, ready to be inputs.
    struct PersistedValues: Sendable {
        var values: [String: AttributedValue] = [:]
        var diagnostics: [Diagnostic] = []
    }

    /// The preferences in the file, with this process's unwritten changes laid over them.
    func loadPreferences(definitions: DefinitionSet) -> PersistedValues? {
        preferencesFile.map { read($0, definitions: definitions, actor: Self.preferencesActor) }
    }

    /// The persisted overrides, with unwritten changes laid over them.
    func loadOverrides(definitions: DefinitionSet) -> PersistedValues? {
        overridesFile.map { read($0, definitions: definitions, actor: Self.overridesActor) }
    }

    private func read(_ file: PersistentOverlayFile, definitions: DefinitionSet, actor: String) -> PersistedValues {
        let loaded = file.load(definitions: definitions)
        var values = loaded.values.mapValues {
            AttributedValue($0.value, actor: actor, location: $0.location, isPersisted: true)
        }
        for (key, pending) in file.pendingValues {
            values[key] = pending.map { AttributedValue($0, actor: actor, isPersisted: true) }
        }
        return PersistedValues(values: values, diagnostics: loaded.diagnostics)
    }

    /// The next inputs after only overlays changed: the definitions (and so the layout and
    /// every key's slot) stay; the overlays are read again against them. `nil` when the
    /// source cannot read overlays alone.
    func reloadedOverlays(from current: ContextInputs) -> Result<(ContextInputs, [Diagnostic]), ReloadFailure>? {
        guard let loadOverlays = source.loadOverlays else { return nil }
        let loaded = loadOverlays(current.layout.definitions)
        guard !loaded.diagnostics.containsErrors else {
            return .failure(ReloadFailure(diagnostics: loaded.diagnostics, files: []))
        }
        var inputs = current
        inputs.environmentOverlay = loaded.environmentOverlay
        inputs.deploymentOverlays = loaded.deploymentOverlays
        return .success((inputs, loaded.diagnostics))
    }

    /// The next inputs after reloading everything, or the diagnostics when anything has an error.
    func reloadedInputs(from current: ContextInputs) -> Result<(ContextInputs, [Diagnostic]), ReloadFailure> {
        let loaded = source.load()
        guard !loaded.diagnostics.containsErrors else {
            return .failure(ReloadFailure(diagnostics: loaded.diagnostics, files: loaded.definitions.files))
        }
        var inputs = current
        inputs.layout = KeyLayout(definitions: loaded.definitions)
        inputs.environmentOverlay = loaded.environmentOverlay
        inputs.deploymentOverlays = loaded.deploymentOverlays
        inputs.fleet = current.fleet?.rechecked(against: inputs.layout)
        var diagnostics = loaded.diagnostics
        if let preferences = loadPreferences(definitions: loaded.definitions) {
            inputs.preferences = preferences.values
            diagnostics += preferences.diagnostics
        }
        if let overrides = loadOverrides(definitions: loaded.definitions) {
            inputs.overrides = Self.mergingOverrides(current.overrides, persisted: overrides.values)
            diagnostics += overrides.diagnostics
        }
        return .success((inputs, diagnostics))
    }

    /// Runtime overrides that were never persisted stay; persisted ones come from the file.
    static func mergingOverrides(
        _ current: [String: AttributedValue], persisted: [String: AttributedValue]
    ) -> [String: AttributedValue] {
        current.filter { !$0.value.isPersisted }.merging(persisted) { _, fromFile in fromFile }
    }

    struct ReloadFailure: Error {
        var diagnostics: [Diagnostic]
        var files: [String]
    }
}
