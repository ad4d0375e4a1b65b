extension AppContext {
    /// Attaches `provider` to this context's root and starts it: from now on it feeds its
    /// the fleet layer until ``ValueProvider/stop()``.
    ///
    /// ```swift
    /// let context = try AppContext(configuration: .init(definitionsDirectory: "flags"))
    /// let remote = InMemoryValueProvider(["beneficiaries.pageSize": 50])
    /// context.attach(remote)
    /// print(context.details(forKeyNamed: "beneficiaries.pageSize").source)  // fleet memory rev 1
    /// remote.stop()
    /// ```
    ///
    /// The context gives the provider a ``ValueProviderUpdates`` handle and calls
    /// ``ValueProvider/start(delivering:)``; the provider delivers its values through it (an
    /// ``InMemoryValueProvider`` before `attach` returns, EnsignFleet's etcd source on its own
    /// thread soon after). Attach one provider per context: a second one's deliveries replace
    /// the first one's values with its own. The handle keeps the context alive while the
    /// provider runs; the caller keeps the provider.
    public func attach(_ provider: some ValueProvider) {
        provider.start(delivering: ValueProviderUpdates(store: rootStore, providerName: provider.name))
    }
}
