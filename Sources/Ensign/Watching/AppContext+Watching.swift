import Synchronization

extension AppContext {
    /// Checks the watched files now and reloads what changed, without waiting for the
    /// watcher's debounce or poll: for tests and for apps that want a reload point.
    public func reloadIfNeeded() {
        let watcher = rootStore.watcher.withLock { $0 }
        watcher?.checkNow()
    }

    /// Returns once the file watcher (if any) has taken its baseline of the files, so a change
    /// written from now on is seen: for tests in this package.
    package func waitUntilWatching() {
        let watcher = rootStore.watcher.withLock { $0 }
        watcher?.waitUntilReady()
    }

    /// How many deliveries the providers attached to this context's root made: for tests in
    /// this package (a stopped provider makes none).
    package var providerDeliveryCount: Int { rootStore.providerDeliveries.load(ordering: .relaxed) }
}
