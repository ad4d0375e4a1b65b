import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutable ``ValueProvider`` held in memory, feeding the fleet layer: for tests, previews
/// and demos, and as the model of a provider for authors of remote ones.
///
/// ```swift
/// let context = try AppContext(definitions: definitions)
/// let fleet = InMemoryValueProvider(["beneficiaries.pageSize": 50])
/// context.attach(fleet)
/// context[.pageSize]                         // 50, source `fleet memory rev 1`
/// fleet["beneficiaries.pageSize"] = 80       // observers of pageSize run before this returns
/// fleet.makeUnavailable(error: "timed out")  // status degraded; 80 stays in force
/// fleet.makeAvailable()
/// fleet.stop()
/// ```
///
/// Every change is a new revision (1, 2, …) and is delivered at once, on the thread that
/// made it, as the whole set of values; the context notifies only the observers of keys whose
/// resolved value changed. Changes made from an observer, or from several threads at once, are
/// delivered in order, each delivery carrying the latest values. While the provider is
/// unavailable, changes are kept and delivered when it is available again.
public final class InMemoryValueProvider: ValueProvider {
    /// The name in provenance, status and the change log; `memory` unless given.
    public let name: String
    private let state: LockedCondition<State>

    private struct State {
        var values: [String: JSONValue]
        var revision: Int64 = 1
        /// The revision at which each key's value last changed (its provenance says it).
        var keyRevisions: [String: Int64]
        var unavailable: String?
        var updates: ValueProviderUpdates?
        /// Whether a delivery is wanted that no deliverer has taken yet.
        var isPending = false
        /// The thread delivering now, if any (one at a time, so deliveries stay in order).
        var deliverer: pthread_t?
    }

    /// A provider holding `values` (by full key) at revision 1, named `name`.
    public init(_ values: [String: JSONValue] = [:], name: String = "memory") {
        self.name = name
        self.state = LockedCondition(State(values: values, keyRevisions: values.mapValues { _ in 1 }))
    }

    /// The values held now, by full key.
    public var values: [String: JSONValue] { state.withLock { $0.values } }

    /// The revision of the values held now: 1 at first, one more with each change.
    public var revision: Int64 { state.withLock { $0.revision } }

    /// The value held for `key` (a full key); setting `nil` removes it. Each set is a change.
    public subscript(key: String) -> JSONValue? {
        get { state.withLock { $0.values[key] } }
        set { change { $0.values[key] = newValue } }
    }

    /// Replaces every value at once, as one change.
    public func replaceAll(_ values: [String: JSONValue]) {
        change { $0.values = values }
    }

    /// Makes the store unreachable: the context's status turns degraded with `error`, and
    /// the values last delivered stay in force.
    public func makeUnavailable(error: String) {
        change { $0.unavailable = error }
    }

    /// Makes the store reachable again and delivers the values held now.
    public func makeAvailable() {
        change { $0.unavailable = nil }
    }

    /// The values held now, each with the provenance `memory rev N` (N: the revision that
    /// last changed it) and the path `memory:KEY`.
    public func currentValues() -> ProvidedValues {
        state.withLock { ProvidedValues(values: provided($0), revision: $0.revision) }
    }

    /// Delivers the values held now to `updates`, then every change, until ``stop()``.
    public func start(delivering updates: ValueProviderUpdates) {
        state.withLock {
            $0.updates = updates
            $0.isPending = true
        }
        deliverPending()
    }

    /// Stops delivering. It waits for a delivery in progress on another thread to end (from an
    /// observer of a delivery, it stops the deliveries after this one), so nothing reaches the
    /// context once it returns.
    public func stop() {
        let current = pthread_self()
        state.wait(
            until: { state in state.deliverer.map { pthread_equal($0, current) != 0 } ?? true },
            then: { state in
                state.updates = nil
                state.isPending = false
            })
    }

    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            let before = state.values
            body(&state)
            state.revision += 1
            for key in Set(before.keys).union(state.values.keys) where before[key] != state.values[key] {
                state.keyRevisions[key] = state.values[key] == nil ? nil : state.revision
            }
            state.isPending = true
        }
        deliverPending()
    }

    /// Delivers until nothing is pending, unless another thread is delivering (it will deliver
    /// what is pending now, since it checks again before it stops).
    private func deliverPending() {
        let current = pthread_self()
        let isDeliverer = state.withLock { state -> Bool in
            guard state.deliverer == nil, state.isPending, state.updates != nil else { return false }
            state.deliverer = current
            return true
        }
        guard isDeliverer else { return }
        while true {
            let next = state.withLock { state -> (ValueProviderUpdates, [String: ProvidedValue], Int64, String?)? in
                guard state.isPending, let updates = state.updates else { return nil }
                state.isPending = false
                return (updates, provided(state), state.revision, state.unavailable)
            }
            guard let (updates, values, revision, unavailable) = next else { break }
            // Outside the lock: observers run during the delivery and may change the provider.
            if let unavailable {
                updates.reportUnavailable(error: unavailable)
            } else {
                updates.replaceAll(values, revision: revision)
            }
        }
        state.update { $0.deliverer = nil }
        // A change made between the last check and giving up the role is delivered now.
        if state.withLock({ $0.isPending && $0.updates != nil }) { deliverPending() }
    }

    private func provided(_ state: State) -> [String: ProvidedValue] {
        state.values.reduce(into: [:]) { result, entry in
            let revision = state.keyRevisions[entry.key] ?? state.revision
            result[entry.key] = ProvidedValue(
                entry.value, origin: "\(name) rev \(revision)", path: "\(name):\(entry.key)")
        }
    }
}
