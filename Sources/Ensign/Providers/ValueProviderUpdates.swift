import Synchronization

/// The handle through which an attached ``ValueProvider`` delivers changes and health to its
/// context; the context creates it and gives it to ``ValueProvider/start(delivering:)``.
///
/// ```swift
/// func start(delivering updates: ValueProviderUpdates) {
///     client.subscribe { event in
///         switch event {
///         case .values(let values, let revision):
///             updates.replaceAll(values.mapValues { ProvidedValue($0, origin: "remote rev \(revision)") }, revision: revision)
///         case .connected(let revision): updates.reportHealthy(revision: revision)
///         case .failed(let error): updates.reportUnavailable(error: "\(error)")
///         }
///     }
/// }
/// ```
///
/// For a ``ProviderLayer/fleet`` provider, ``replaceAll(_:revision:problems:from:)`` applies
/// at once, as one transaction under the context's writer lock: the layer is replaced, each
/// value is checked against its definition, observers of the keys whose resolved value
/// changed run on the calling thread before the call returns, and the change log records the
/// transaction with cause ``ChangeCause/fleet(source:)``. ``reportHealthy(revision:from:)``
/// and ``reportUnavailable(error:from:)`` change ``ContextStatus/fleet``, the provider's
/// health; an outage and its end are logged once each.
///
/// The handle keeps its context alive while the provider holds it (as a running provider
/// should); the ``FileValueProvider``'s does not, so releasing that context stops its watching.
public final class ValueProviderUpdates: Sendable {
    /// The name of the provider it was created for.
    public let providerName: String
    /// The layer it feeds.
    public let layer: ProviderLayer
    private let target: Target

    /// The store the deliveries go to, held strongly (a running provider keeps its context
    /// alive) or weakly (the file provider, which the context's store itself keeps running).
    private enum Target: Sendable {
        case strong(ContextStore)
        case weak(WeakContextStore)

        var store: ContextStore? {
            switch self {
            case .strong(let store): return store
            case .weak(let reference): return reference.store
            }
        }
    }

    init(store: ContextStore, providerName: String, layer: ProviderLayer, retainsContext: Bool) {
        self.providerName = providerName
        self.layer = layer
        target = retainsContext ? .strong(store) : .weak(WeakContextStore(store: store))
    }

    private var store: ContextStore? { target.store }

    /// Whether the context still exists to receive deliveries.
    public var isAttached: Bool { store != nil }

    /// Replaces everything the provider feeds with `values` (by full key), as one transaction.
    ///
    /// Each value is checked against its key's definition (type, `enum`, bounds): values that
    /// fit form the layer, with their ``ProvidedValue/provenance`` as their source; a value that
    /// does not fit is left out and reported at its ``ProvidedValue/path``, while every other key
    /// keeps working. Keys absent from `values` no longer come from this provider. It also marks
    /// the provider healthy at `revision`.
    ///
    /// For the ``ProviderLayer/files`` layer the context reads the files again through the
    /// provider instead (the values given are not used).
    ///
    /// - Parameters:
    ///   - values: everything the provider holds now, by full key.
    ///   - revision: the store revision the values reflect, if it has revisions.
    ///   - problems: values the provider could not parse, at their paths (reported like refused values).
    ///   - origin: the replica or endpoint that delivered them, shown in the status and the
    ///     change log instead of the provider's name (`etcd http://10.0.0.2:2379`).
    /// - Returns: every problem in force: unparseable values, refused values (errors) and values
    ///   for undefined keys (warnings).
    @discardableResult
    public func replaceAll(
        _ values: [String: ProvidedValue], revision: Int64?, problems: [Diagnostic] = [], from origin: String? = nil
    ) -> [Diagnostic] {
        guard let store = store else { return [] }
        store.providerDeliveries.add(1, ordering: .relaxed)
        switch layer {
        case .files:
            return store.reload(ReloadRequest(definitions: .all, preferencesFile: false, overridesFile: false))
        case .fleet:
            let source = origin ?? providerName
            // A value delivered without a location takes the source's name as its provenance.
            let located =
                values.values.contains { $0.origin.isEmpty }
                ? values.mapValues { $0.origin.isEmpty ? ProvidedValue($0.value, origin: source, path: $0.path) : $0 }
                : values
            return store.replaceFleetLayer(located, source: source, revision: revision, problems: problems)
        }
    }

    /// Records that the provider reaches its store (again) at `revision`, with nothing to change.
    ///
    /// - Parameters:
    ///   - revision: the store revision reached, if it has revisions (the status keeps the highest).
    ///   - origin: the replica or endpoint reached, shown instead of the provider's name.
    public func reportHealthy(revision: Int64?, from origin: String? = nil) {
        guard layer == .fleet, let store = store else { return }
        store.providerDeliveries.add(1, ordering: .relaxed)
        store.recordFleetReachable(source: origin ?? providerName, revision: revision)
    }

    /// Records that the provider cannot reach its store: the status turns degraded (since the
    /// first report) and the values last delivered stay in force. Logged once per outage.
    ///
    /// - Parameters:
    ///   - error: why, in a sentence: `connection refused`.
    ///   - origin: the replica or endpoint that failed, shown instead of the provider's name.
    public func reportUnavailable(error: String, from origin: String? = nil) {
        guard layer == .fleet, let store = store else { return }
        store.providerDeliveries.add(1, ordering: .relaxed)
        store.recordFleetUnreachable(source: origin ?? providerName, error: error)
    }

    /// The file provider's watcher saw files change, by watch group: reads them again as one
    /// transaction (see ``ContextStore/reload(_:)``).
    func filesChanged(_ changed: [String: [String]]) {
        guard let store = store else { return }
        store.providerDeliveries.add(1, ordering: .relaxed)
        store.reload(
            ReloadRequest(
                definitions: changed[FileValueProvider.definitionsGroup].map { .changed($0) } ?? .none,
                preferencesFile: changed[FileValueProvider.preferencesGroup] != nil,
                overridesFile: changed[FileValueProvider.overridesGroup] != nil))
    }

    /// Gives the context's store the watcher that feeds it, so releasing the context stops it.
    func adopt(_ watcher: FileWatcher) {
        guard let store = store else { return watcher.stop() }
        let previous = store.watcher.withLock { current in
            defer { current = watcher }
            return current
        }
        if previous !== watcher { previous?.stop() }
    }
}

/// A weak reference to a store, for handles that must not keep their context alive.
struct WeakContextStore: Sendable {
    weak var store: ContextStore?
}
