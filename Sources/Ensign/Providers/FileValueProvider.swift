import EnsignSupport

/// The files of an ``AppContextConfiguration`` as a ``ValueProvider``: the definitions
/// directory, the environment's overlay and the deployment files, feeding layers 2–4
/// (``ProviderLayer/files``).
///
/// ``AppContext/init(configuration:)`` builds one and loads through it; build it yourself to
/// look at what the files hold, or to give it to ``AppContext/init(files:)``:
///
/// ```swift
/// let files = FileValueProvider(configuration: .init(definitionsDirectory: "flags", environment: "staging"))
/// print(files.name)  // files flags
/// if let pageSize = files.currentValues().values["beneficiaries.pageSize"] {
///     print(pageSize.value, pageSize.provenance)  // 50 environment flags/environments/staging.yaml:2:27
/// }
/// let context = try AppContext(files: files)
/// ```
///
/// A load reads the definitions, the environment's own overlay and the deployment files: no
/// other environment's file, so a broken `staging.yaml` cannot stop a production context.
/// Targeting rules that do not compile are warnings (their flags resolve with `PARSE_ERROR`).
///
/// Unlike a fleet provider, its values are not a flat set of keys: definitions bring types,
/// rules and targeting, so the context reads the files itself through the provider, and the
/// provider's change delivery is its file watcher (``start(delivering:)``), which tells the
/// context which files changed. ``currentValues()`` shows, for every key the files set, the
/// value layers 2–4 resolve to and where it was written.
public final class FileValueProvider: ValueProvider {
    /// The configuration the files come from.
    public let configuration: AppContextConfiguration
    /// How the context reads the files, at start-up and for every reload.
    let source: ConfigurationSource
    /// The watchers started for contexts (each context's store keeps its own running).
    private let watchers = LockedState<[WeakFileWatcher]>([])

    /// The provider of `configuration`'s files.
    public init(configuration: AppContextConfiguration) {
        self.configuration = configuration
        self.source = .directory(configuration)
    }

    /// `files` and the definitions directory: `files flags`.
    public var name: String { "files \(configuration.definitionsDirectory)" }

    /// ``ProviderLayer/files``.
    public var layer: ProviderLayer { .files }

    /// Reads the files now (as a context's start does) and returns, for every key they set,
    /// the value layers 2–4 resolve to, with the layer and the position that set it, and every
    /// diagnostic. Targeting, which is evaluated per request, is not part of it.
    public func currentValues() -> ProvidedValues {
        let loaded = source.load(.start)
        let inputs = ContextInputs(
            layout: KeyLayout(definitions: loaded.definitions), environment: source.environment,
            environmentOverlay: loaded.environmentOverlay, deploymentOverlays: loaded.deploymentOverlays)
        var values: [String: ProvidedValue] = [:]
        for definition in loaded.definitions.orderedDefinitions {
            let entry = SnapshotResolver.staticEntry(definition, inputs: inputs)
            guard let value = entry.value else { continue }
            values[definition.key] = ProvidedValue(
                value, provenance: entry.source, path: entry.source.location?.file ?? definition.location.file)
        }
        return ProvidedValues(values: values, diagnostics: loaded.diagnostics)
    }

    /// Starts watching the files for the context `updates` belongs to; each change reloads it.
    ///
    /// It watches with inotify (and stat polling) as ``AppContextConfiguration`` says:
    /// ``AppContextConfiguration/watchDebounce`` and ``AppContextConfiguration/pollInterval``.
    /// It watches the configuration's preferences and overrides files too — the context
    /// reads those itself — so that edits to several files in one debounce window reload in one
    /// transaction. ``AppContext/init(files:)`` calls it unless
    /// ``AppContextConfiguration/watchesFiles`` is off; releasing the context stops the watcher.
    public func start(delivering updates: ValueProviderUpdates) {
        let watcher = FileWatcher(
            groups: watchGroups, debounce: configuration.watchDebounce, pollInterval: configuration.pollInterval
        ) { changed in
            // Every group that changed in this window, in one transaction.
            updates.filesChanged(changed)
        }
        updates.adopt(watcher)
        watchers.withLock { watchers in
            watchers.removeAll { $0.watcher == nil }
            watchers.append(WeakFileWatcher(watcher: watcher))
        }
    }

    /// Stops watching for every context it was started for; their values stay as last read.
    public func stop() {
        let running = watchers.withLock { watchers in
            defer { watchers = [] }
            return watchers.compactMap(\.watcher)
        }
        for watcher in running { watcher.stop() }
    }

    /// The watch groups' names: the definitions side, the preferences file, the overrides file.
    static let definitionsGroup = "definitions"
    static let preferencesGroup = "preferences"
    static let overridesGroup = "overrides"

    /// The watch groups: definitions (with the environment's file and the deployment files),
    /// preferences, overrides.
    var watchGroups: [FileWatcher.Group] {
        var groups = [
            FileWatcher.Group(
                name: Self.definitionsGroup, files: source.watchedFiles, directories: source.watchedDirectories)
        ]
        if let path = configuration.preferencesFile {
            groups.append(
                FileWatcher.Group(
                    name: Self.preferencesGroup, files: { [path] }, directories: [FileSystem.parentDirectory(of: path)]
                ))
        }
        if let path = configuration.overridesFile {
            groups.append(
                FileWatcher.Group(
                    name: Self.overridesGroup, files: { [path] }, directories: [FileSystem.parentDirectory(of: path)]))
        }
        return groups
    }
}

/// A watcher a ``FileValueProvider`` started, without keeping it alive: its context's store does.
private struct WeakFileWatcher: Sendable {
    weak var watcher: FileWatcher?
}
