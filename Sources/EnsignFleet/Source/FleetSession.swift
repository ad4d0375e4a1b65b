import Ensign
import EnsignHTTP
import EnsignSupport

/// What the fleet source has done so far, for waiters.
struct FleetProgress: Sendable {
    /// The store revision the published fleet layer reflects (0 before the first read).
    var revision: Int64 = 0
    /// Whether the first full read has been published.
    var isSynced = false
    /// Whether the work loop has ended.
    var isStopped = false
    /// How many times the whole prefix was read (at start, and after each compaction).
    var fullReads = 0
    /// What the source last delivered.
    var delivered = ProvidedValues()
}

/// The fleet source's work loop, on its own thread: read every key under the prefix, publish
/// the fleet layer, watch from the next revision and publish each change; on any failure,
/// report the store unreachable (once every endpoint has failed in a row), wait with backoff
/// and jitter, and resume on the next endpoint from the last revision seen, so no change is
/// missed. When etcd has compacted that revision, read everything again: the context diffs
/// the new layer against the old by value, so observers hear only about real changes.
final class FleetSession: Sendable {
    /// The context's handle: deliveries and health go through it.
    let updates: ValueProviderUpdates
    let configuration: EtcdConfiguration
    let endpoints: [EtcdEndpoint]
    let cancellation: Cancellation
    let progress: LockedCondition<FleetProgress>

    /// The loop's own state; only the loop's thread touches it.
    private struct LoopState {
        /// By flag key.
        var entries: [String: FleetEntry] = [:]
        var revision: Int64 = 0
        var needsFullRead = true
        var endpointIndex = 0
        var consecutiveFailures = 0
    }

    /// One etcd key under the prefix, parsed once when it changes.
    private struct FleetEntry {
        var etcdKey: String
        var origin: String
        var value: FleetValueText.Parsed
    }

    init(
        updates: ValueProviderUpdates, client: EtcdClient, cancellation: Cancellation,
        progress: LockedCondition<FleetProgress>
    ) {
        self.updates = updates
        self.configuration = client.configuration
        self.endpoints = client.endpoints
        self.cancellation = cancellation
        self.progress = progress
    }

    private var prefix: String { configuration.keyPrefix }

    func run() {
        var state = LoopState()
        while !cancellation.isCancelled {
            let endpoint = endpoints[state.endpointIndex]
            do {
                if state.needsFullRead { try readAll(from: endpoint, into: &state) }
                try follow(endpoint, state: &state)
            } catch .cancelled {
                break
            } catch .compacted {
                state.needsFullRead = true
            } catch {
                state.consecutiveFailures += 1
                if state.consecutiveFailures >= endpoints.count {
                    updates.reportUnavailable(error: "\(error)", from: "etcd \(endpoint.name)")
                }
                state.endpointIndex = (state.endpointIndex + 1) % endpoints.count
                let delay = configuration.reconnectBackoff.delay(afterFailures: state.consecutiveFailures)
                if cancellation.sleep(for: delay) { break }
            }
        }
        progress.update { $0.isStopped = true }
    }

    /// Reads every key under the prefix and publishes them as the whole fleet layer.
    private func readAll(from endpoint: EtcdEndpoint, into state: inout LoopState) throws(EtcdError) {
        let range = try endpoint.range(prefix, rangeEnd: EtcdKeyRange.end(ofPrefix: prefix))
        state.entries = [:]
        for keyValue in range.keyValues { apply(keyValue, from: endpoint, to: &state) }
        state.revision = range.revision
        state.needsFullRead = false
        state.consecutiveFailures = 0
        countFullRead()
        publish(state, from: endpoint)
    }

    /// Watches from the revision after the last one seen, publishing the changes of each read
    /// at once, until the stream fails. A watcher that fell behind (a slow machine, a failover)
    /// gets many responses in one read; publishing the whole layer once for them, not once per
    /// response, is what lets it catch up.
    private func follow(_ endpoint: EtcdEndpoint, state: inout LoopState) throws(EtcdError) {
        try endpoint.watch(prefix, rangeEnd: EtcdKeyRange.end(ofPrefix: prefix), startRevision: state.revision + 1) {
            (responses) throws(EtcdError) -> Bool in
            var changed = false
            // What the responses before a failing one changed is delivered before the failure.
            defer { if changed { publish(state, from: endpoint) } }
            for response in responses {
                if response.compactRevision > 0 {
                    throw .compacted(endpoint: endpoint.name, compactRevision: response.compactRevision)
                }
                if response.isCanceled {
                    throw .server(
                        endpoint: endpoint.name, code: 1, message: response.cancelReason ?? "the watch was cancelled")
                }
                if response.isCreated {
                    state.consecutiveFailures = 0
                    updates.reportHealthy(revision: state.revision, from: "etcd \(endpoint.name)")
                    continue
                }
                if response.isProgressNotification {
                    state.revision = max(state.revision, response.revision)
                    let revision = state.revision
                    progress.update { $0.revision = max($0.revision, revision) }
                    continue
                }
                for event in response.events {
                    switch event.kind {
                    case .put: apply(event.keyValue, from: endpoint, to: &state)
                    case .delete: state.entries[flagKey(of: event.keyValue.key)] = nil
                    }
                    state.revision = max(state.revision, event.keyValue.modRevision)
                }
                changed = true
            }
            return true
        }
    }

    private func apply(_ keyValue: EtcdKeyValue, from endpoint: EtcdEndpoint, to state: inout LoopState) {
        let path = "etcd:" + keyValue.key
        state.entries[flagKey(of: keyValue.key)] = FleetEntry(
            etcdKey: keyValue.key, origin: "etcd \(endpoint.name) rev \(keyValue.modRevision)",
            value: FleetValueText.parse(keyValue.value, path: path))
    }

    private func flagKey(of etcdKey: String) -> String {
        String(decoding: etcdKey.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }

    /// Delivers the whole layer to the context (which checks, diffs and notifies), then tells waiters.
    private func publish(_ state: LoopState, from endpoint: EtcdEndpoint) {
        var values: [String: ProvidedValue] = [:]
        var problems: [Diagnostic] = []
        for (key, entry) in state.entries {
            switch entry.value {
            case .value(let value):
                values[key] = ProvidedValue(value, origin: entry.origin, path: "etcd:" + entry.etcdKey)
            case .unreadable(let reason):
                problems.append(
                    Diagnostic(
                        .error, at: .unknown("etcd:" + entry.etcdKey), key: key,
                        "'\(key)' fleet value cannot be read: \(reason); the fleet value (\(entry.origin)) is ignored"
                            + " and the lower layers decide the key until it is fixed"))
            }
        }
        problems.sort { $0.location < $1.location }
        let revision = state.revision
        // Before delivering: a waiter woken by the revision reads what was delivered.
        progress.update { $0.delivered = ProvidedValues(values: values, diagnostics: problems, revision: revision) }
        updates.replaceAll(values, revision: revision, problems: problems, from: "etcd \(endpoint.name)")
        progress.update { progress in
            progress.revision = max(progress.revision, revision)
            progress.isSynced = true
        }
    }

    private func countFullRead() {
        progress.update { $0.fullReads += 1 }
    }
}
