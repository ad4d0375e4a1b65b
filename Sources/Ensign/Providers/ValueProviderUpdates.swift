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
/// ``replaceAll(_:revision:problems:from:)`` applies at once, as one transaction under the
/// context's writer lock: the fleet layer is replaced, each value is checked against its
/// definition, observers of the keys whose resolved value changed run on the calling thread
/// before the call returns, and the change log records the transaction with cause
/// ``ChangeCause/fleet(source:)``. ``reportHealthy(revision:from:)`` and
/// ``reportUnavailable(error:from:)`` change ``ContextStatus/fleet``, the provider's health; an
/// outage and its end are logged once each.
///
/// The handle keeps its context alive while the provider holds it, as a running provider should.
public final class ValueProviderUpdates: Sendable {
    /// The name of the provider it was created for.
    public let providerName: String
    private let store: ContextStore

    init(store: ContextStore, providerName: String) {
        self.providerName = providerName
        self.store = store
    }

    /// Replaces everything the provider feeds with `values` (by full key), as one transaction.
    ///
    /// Each value is checked against its key's definition (type, `enum`, bounds): values that
    /// fit form the layer, with their ``ProvidedValue/provenance`` as their source; a value that
    /// does not fit is left out and reported at its ``ProvidedValue/path``, while every other key
    /// keeps working. Keys absent from `values` no longer come from this provider. It also marks
    /// the provider healthy at `revision`.
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
        store.providerDeliveries.add(1, ordering: .relaxed)
        let source = origin ?? providerName
        // A value delivered without a location takes the source's name as its provenance.
        let located =
            values.values.contains { $0.origin.isEmpty }
            ? values.mapValues { $0.origin.isEmpty ? ProvidedValue($0.value, origin: source, path: $0.path) : $0 }
            : values
        return store.replaceFleetLayer(located, source: source, revision: revision, problems: problems)
    }

    /// Records that the provider reaches its store (again) at `revision`, with nothing to change.
    ///
    /// - Parameters:
    ///   - revision: the store revision reached, if it has revisions (the status keeps the highest).
    ///   - origin: the replica or endpoint reached, shown instead of the provider's name.
    public func reportHealthy(revision: Int64?, from origin: String? = nil) {
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
        store.providerDeliveries.add(1, ordering: .relaxed)
        store.recordFleetUnreachable(source: origin ?? providerName, error: error)
    }
}
