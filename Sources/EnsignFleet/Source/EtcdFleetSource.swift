import Ensign
import EnsignHTTP
import EnsignSupport

/// Feeds a context's fleet layer (layer 4½, between deployment files and targeting) from
/// etcd, and keeps it live: every instance of an app that watches the same prefix applies a
/// change within milliseconds of its write.
///
/// ```swift
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags"))
/// let fleet = try EtcdFleetSource.start(context: context, endpoints: ["http://127.0.0.1:2379"], prefix: "/myapp/flags/")
/// _ = fleet.waitUntilSynced(timeout: .seconds(2))  // optional: start with the fleet's values
/// // … `ensign fleet set beneficiaries.pageSize 50 --etcd http://127.0.0.1:2379 --prefix /myapp/flags/`
/// fleet.stop()
/// ```
///
/// The etcd key `prefix + flagKey` holds `flagKey`'s value as JSON or YAML text. Each value is
/// checked against its definition: values that fit resolve with reason `STATIC` and source
/// `fleet etcd http://127.0.0.1:2379 rev 42` (the endpoint that delivered it and the key's
/// revision); a value that does not fit is left out (the lower layers decide that key) and
/// reported in the context's status and change log with its etcd path
/// (`etcd:/myapp/flags/list.pageSize`), while every other key keeps working.
///
/// The source reads every key under the prefix, then watches from the next revision on its
/// own thread. When the connection fails it reconnects with exponential backoff and jitter,
/// trying the endpoints in turn, and resumes the watch from the last revision it saw, so no
/// change is missed; if etcd compacted that revision, it reads everything again and the
/// context diffs. Meanwhile the last good fleet layer stays in force, and once every endpoint
/// has failed in a row, `AppContext.status` is degraded, with `ContextStatus.fleet` saying
/// since when and why.
///
/// It is a `ValueProvider` (it feeds the fleet layer): create one with
/// ``init(configuration:)`` and give it to `AppContext.attach(_:)`, or call
/// ``start(context:configuration:)``, which does both. It delivers through the context's
/// `ValueProviderUpdates` handle like any provider, and passes EnsignTesting's
/// `ValueProviderCompatibilityTest`.
///
/// ```swift
/// let fleet = try EtcdFleetSource(configuration: EtcdConfiguration(endpoints: ["http://127.0.0.1:2379"], keyPrefix: "/myapp/flags/"))
/// context.attach(fleet)
/// ```
///
/// Observers of keys the fleet changes run on the source's thread. The fleet layer belongs
/// to the root of the context given; start one source per context (a second would replace
/// the first one's layer with its own). Keep the source while it should run: ``stop()``, or
/// releasing it, stops the thread and closes its connection.
public final class EtcdFleetSource: ValueProvider {
    /// The configuration it runs with.
    public let configuration: EtcdConfiguration
    /// What the source has done so far, across its runs.
    private let progress = LockedCondition(FleetProgress())
    /// The running session and its thread, between ``start(delivering:)`` and ``stop()``.
    private let running = LockedState<Running?>(nil)

    private struct Running: Sendable {
        let session: FleetSession
        let thread: JoinableThread
    }

    /// A source for the etcd cluster `configuration` names, not started yet: attach it to a
    /// context (`context.attach(source)`), or call ``start(delivering:)`` with a handle.
    ///
    /// - Throws: ``EtcdError/invalidConfiguration(_:)`` for a bad endpoint URL (`https://`
    ///   is refused: see ``EtcdConfiguration``), no endpoints, or an empty prefix.
    public init(configuration: EtcdConfiguration) throws(EtcdError) {
        // Checks the configuration now, so that starting cannot fail.
        _ = try EtcdClient(configuration: configuration, cancellation: nil)
        self.configuration = configuration
    }

    deinit { stop() }

    /// `etcd` and the endpoints: `etcd http://127.0.0.1:2379` (several are comma-separated).
    /// The status and the change log name the endpoint that delivered.
    public var name: String { "etcd " + configuration.endpoints.joined(separator: ",") }

    /// The values the source last delivered (every key under the prefix, by flag key, with
    /// the endpoint and the key's revision as provenance), the values it could not parse, and
    /// the etcd revision; empty before the first read.
    public func currentValues() -> ProvidedValues {
        progress.withLock { $0.delivered }
    }

    /// Starts the source's thread, delivering to `updates`: it reads every key under the
    /// prefix, delivers them, then watches and delivers each change. Returns at once; an
    /// unreachable cluster is not an error here: the source keeps trying and reports it
    /// unavailable. Starting a running source does nothing; a stopped one starts again with a
    /// fresh connection (and reads the whole prefix again).
    public func start(delivering updates: ValueProviderUpdates) {
        running.withLock { running in
            guard running == nil else { return }
            let cancellation = Cancellation()
            // The configuration was checked by init.
            guard let client = try? EtcdClient(configuration: configuration, cancellation: cancellation) else { return }
            progress.update { progress in
                progress.isSynced = false
                progress.isStopped = false
            }
            let session = FleetSession(updates: updates, client: client, cancellation: cancellation, progress: progress)
            running = Running(session: session, thread: JoinableThread(name: "ensign-fleet") { session.run() })
        }
    }

    /// Starts feeding `context`'s fleet layer from the etcd cluster `configuration` names:
    /// ``init(configuration:)``, then `context.attach(_:)`.
    ///
    /// Returns at once; the first read happens on the source's thread (see
    /// ``waitUntilSynced(timeout:)``). An unreachable cluster is not an error here: the source
    /// keeps trying and the context's status says it is degraded.
    ///
    /// - Throws: ``EtcdError/invalidConfiguration(_:)`` for a bad endpoint URL (`https://`
    ///   is refused: see ``EtcdConfiguration``), no endpoints, or an empty prefix.
    public static func start(context: AppContext, configuration: EtcdConfiguration) throws(EtcdError)
        -> EtcdFleetSource
    {
        let source = try EtcdFleetSource(configuration: configuration)
        context.attach(source)
        return source
    }

    /// Starts feeding `context`'s fleet layer from `endpoints` (`http://host:port` URLs)
    /// under `prefix`, with the default timeouts and backoff: what `ensign demo --etcd URL
    /// --etcd-prefix P` calls.
    ///
    /// ```swift
    /// let fleet = try EtcdFleetSource.start(
    ///     context: context, endpoints: EtcdConfiguration.endpoints(fromList: "http://127.0.0.1:2379"),
    ///     prefix: "/demo/flags/")
    /// ```
    public static func start(context: AppContext, endpoints: [String], prefix: String) throws(EtcdError)
        -> EtcdFleetSource
    {
        try start(context: context, configuration: EtcdConfiguration(endpoints: endpoints, keyPrefix: prefix))
    }

    /// Stops the source: interrupts its connection and waits for its thread to end (from an
    /// observer running on that thread, it lets the thread end on its own). The fleet layer
    /// stays as it was. Later calls do nothing.
    public func stop() {
        guard let stopped = running.withLock({ $0.take() }) else { return }
        stopped.session.cancellation.cancel()
        stopped.thread.join()
    }

    /// The etcd revision the fleet layer reflects (0 before the first read).
    public var revision: Int64 { progress.withLock { $0.revision } }

    /// How many times the source read the whole prefix: once at start, then after each
    /// compaction that outran it.
    var fullReads: Int { progress.withLock { $0.fullReads } }

    /// Whether the first read of the prefix has reached the context.
    public var isSynced: Bool { progress.withLock { $0.isSynced } }

    /// Waits until the first read of the prefix has reached the context, at most `timeout`;
    /// returns whether it has.
    public func waitUntilSynced(timeout: Duration) -> Bool {
        progress.wait(until: { $0.isSynced || $0.isStopped }, timeout: timeout)
            && isSynced
    }

    /// Waits until the fleet layer reflects etcd revision `revision` or later (the revision a
    /// write returned), at most `timeout`; returns whether it does. The context's observers
    /// of that change have run by then.
    public func waitForRevision(_ revision: Int64, timeout: Duration) -> Bool {
        progress.wait(until: { $0.revision >= revision || $0.isStopped }, timeout: timeout)
            && self.revision >= revision
    }
}
