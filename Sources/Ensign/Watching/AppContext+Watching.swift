extension AppContext {
    /// The watch groups of a configuration: definitions (with environments and deployment
    /// files), preferences, overrides.
    static func watchGroups(_ configuration: AppContextConfiguration, source: ConfigurationSource) -> [FileWatcher
        .Group]
    {
        var groups = [
            FileWatcher.Group(name: "definitions", files: source.watchedFiles, directories: source.watchedDirectories)
        ]
        if let path = configuration.preferencesFile {
            groups.append(
                FileWatcher.Group(
                    name: "preferences", files: { [path] }, directories: [FileSystem.parentDirectory(of: path)]))
        }
        if let path = configuration.overridesFile {
            groups.append(
                FileWatcher.Group(
                    name: "overrides", files: { [path] }, directories: [FileSystem.parentDirectory(of: path)]))
        }
        return groups
    }

    /// Starts the watcher that reloads this root context when its files change.
    func startWatching(_ configuration: AppContextConfiguration) {
        guard let loader = store.loader else { return }
        let groups = Self.watchGroups(configuration, source: loader.source)
        let watcher = FileWatcher(
            groups: groups, debounce: configuration.watchDebounce, pollInterval: configuration.pollInterval
        ) { [weak store] changed in
            guard let store else { return }
            // Every group that changed in this window, in one transaction.
            store.reload(
                ReloadRequest(
                    definitions: changed["definitions"].map { .changed($0) } ?? .none,
                    preferencesFile: changed["preferences"] != nil, overridesFile: changed["overrides"] != nil))
        }
        store.watcher.withLock { $0 = watcher }
    }

    /// Checks the watched files now and reloads what changed, without waiting for the
    /// watcher's debounce or poll: for tests and for apps that want a reload point.
    public func reloadIfNeeded() {
        let watcher = rootStore.watcher.withLock { $0 }
        watcher?.checkNow()
    }
}
