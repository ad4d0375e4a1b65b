extension ContextStore {
    /// Starts watching a root context's files; each change reloads what changed, in one
    /// transaction, straight from the watcher (see ``reload(_:)``).
    ///
    /// It watches with inotify (and stat polling) as `configuration` says
    /// (``AppContextConfiguration/watchDebounce``, ``AppContextConfiguration/pollInterval``): the
    /// definitions side (the definitions, the environment's overlay and the deployment files),
    /// the preferences file and the overrides file, so that edits to several files in one
    /// debounce window reload in one transaction. The store keeps the watcher; releasing the
    /// context stops it. The persisted files announce their own writes to it, so a write of
    /// this context is not read back.
    func startWatching(_ configuration: AppContextConfiguration) {
        guard let loader else { return }
        let watcher = FileWatcher(
            groups: Self.watchGroups(of: loader), debounce: configuration.watchDebounce,
            pollInterval: configuration.pollInterval
        ) { [weak self] changed in
            self?.reload(
                ReloadRequest(
                    definitions: changed[Self.definitionsGroup].map { .changed($0) } ?? .none,
                    preferencesFile: changed[Self.preferencesGroup] != nil,
                    overridesFile: changed[Self.overridesGroup] != nil))
        }
        self.watcher.withLock { $0 = watcher }
        loader.preferencesFile?.watch(with: watcher)
        loader.overridesFile?.watch(with: watcher)
    }

    /// The watch groups' names: the definitions side, the preferences file, the overrides file.
    private static let definitionsGroup = "definitions"
    private static let preferencesGroup = "preferences"
    private static let overridesGroup = "overrides"

    private static func watchGroups(of loader: ContextLoader) -> [FileWatcher.Group] {
        var groups = [
            FileWatcher.Group(
                name: definitionsGroup, files: loader.source.watchedFiles,
                directories: loader.source.watchedDirectories)
        ]
        for (name, file) in [(preferencesGroup, loader.preferencesFile), (overridesGroup, loader.overridesFile)] {
            guard let path = file?.path else { continue }
            groups.append(
                FileWatcher.Group(name: name, files: { [path] }, directories: [FileSystem.parentDirectory(of: path)]))
        }
        return groups
    }
}
