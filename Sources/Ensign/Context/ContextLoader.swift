/// Reads everything a root context resolves from: definitions and overlays from their
/// source, and the user's preferences and persisted overrides from their files. Used at
/// start-up and for every reload, so both read files the same way. It only reads; the
/// store decides what to apply (see ``ContextStore/reload(_:)``).
struct ContextLoader: Sendable {
    let source: ConfigurationSource
    let preferencesFile: PersistentOverlayFile?
    let overridesFile: PersistentOverlayFile?

    static let preferencesActor = "preferences file"
    static let overridesActor = "overrides file"

    /// Values read from a persisted file at start-up, ready to be inputs.
    struct PersistedValues: Sendable {
        /// The values of defined keys that fit their definitions.
        var values: [String: AttributedValue] = [:]
        /// Everything the file holds (after an unusable file was set aside), by key.
        var onDisk: [String: JSONValue] = [:]
        var diagnostics: [Diagnostic] = []
        /// Why the file's directory cannot be used (the context refuses to start).
        var refusal: Diagnostic?
    }

    /// Why the directories of the preferences and overrides files cannot hold state (another
    /// user's, writable by others, a link, or reached through a directory or link another user
    /// could change), before anything is read or written in them, and before they exist.
    func unsafeStateDirectories() -> [Diagnostic] {
        [preferencesFile, overridesFile].compactMap { file -> Diagnostic? in
            guard let file else { return nil }
            do throws(FileSystem.Failure) {
                try FileSystem.checkStateDirectory(FileSystem.parentDirectory(of: file.path))
                return nil
            } catch {
                return Diagnostic(.error, at: .unknown(file.path), error.description)
            }
        }
    }

    /// The preferences file at start-up (an unusable one is set aside, never overwritten).
    func loadPreferences(definitions: DefinitionSet) -> PersistedValues? {
        preferencesFile.map { load($0, definitions: definitions, actor: Self.preferencesActor) }
    }

    /// The overrides file at start-up.
    func loadOverrides(definitions: DefinitionSet) -> PersistedValues? {
        overridesFile.map { load($0, definitions: definitions, actor: Self.overridesActor) }
    }

    private func load(_ file: PersistentOverlayFile, definitions: DefinitionSet, actor: String) -> PersistedValues {
        let loaded = file.load(definitions: definitions)
        return PersistedValues(
            values: loaded.values.mapValues {
                AttributedValue($0.value, actor: actor, location: $0.location, isPersisted: true)
            },
            onDisk: loaded.onDisk, diagnostics: loaded.diagnostics, refusal: loaded.refusal)
    }

    /// What a reload read of the definitions, the environment overlay and the deployment files.
    struct DefinitionLayers: Sendable {
        /// The new layout, or `nil` when only overlays were read (the definitions stay).
        var layout: KeyLayout?
        var environmentOverlay: Overlay?
        var deploymentOverlays: [Overlay]
        /// Warnings (a reload with errors fails instead).
        var diagnostics: [Diagnostic]
        /// The files read, for the change log.
        var files: [String]
    }

    /// A reload that found errors: nothing it read is applied.
    struct ReloadFailure: Error {
        var diagnostics: [Diagnostic]
        var files: [String]
    }

    /// Reads the definitions side again. When every changed file is an overlay, only the
    /// overlays are read, against the definitions in force: a deployment file edit costs its
    /// own size, not the app's.
    func readDefinitionLayers(
        changedFiles: [String]?, definitions: DefinitionSet
    ) -> Result<DefinitionLayers, ReloadFailure> {
        let onlyOverlays = changedFiles.map { !$0.isEmpty && $0.allSatisfy(source.isOverlay) } ?? false
        if onlyOverlays, let loadOverlays = source.loadOverlays {
            let loaded = loadOverlays(definitions)
            let files = changedFiles ?? []
            guard !loaded.diagnostics.containsErrors else {
                return .failure(ReloadFailure(diagnostics: loaded.diagnostics, files: files))
            }
            return .success(
                DefinitionLayers(
                    layout: nil, environmentOverlay: loaded.environmentOverlay,
                    deploymentOverlays: loaded.deploymentOverlays, diagnostics: loaded.diagnostics, files: files))
        }
        let loaded = source.load(.reload)
        let files = changedFiles ?? loaded.definitions.files
        guard !loaded.diagnostics.containsErrors else {
            return .failure(ReloadFailure(diagnostics: loaded.diagnostics, files: files))
        }
        return .success(
            DefinitionLayers(
                layout: KeyLayout(definitions: loaded.definitions), environmentOverlay: loaded.environmentOverlay,
                deploymentOverlays: loaded.deploymentOverlays, diagnostics: loaded.diagnostics, files: files))
    }

    /// Reads a persisted file again while the app runs: everything it holds by key (this
    /// process's writes not yet on disk laid over it), or a failure when it does not parse or
    /// a value does not fit its definition. Unlike at start-up, a bad file is not set aside:
    /// it is a failed reload like any other file's, and the last good values stay.
    func reread(_ file: PersistentOverlayFile, definitions: DefinitionSet) -> Result<
        [String: LocatedValue], ReloadFailure
    > {
        file.reread(definitions: definitions)
    }
}
