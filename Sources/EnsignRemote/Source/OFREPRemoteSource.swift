import Ensign
import EnsignHTTP
import EnsignOFREP
import EnsignSupport

/// Feeds a context's fleet layer from a remote OFREP server (`ensign serve`, or any
/// flag service that speaks the OpenFeature Remote Evaluation Protocol), and keeps working
/// offline: the last good evaluation is cached on disk, so an app starts with the last known
/// values and catches up when the network returns.
///
/// ```swift
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags"))
/// var configuration = OFREPRemoteConfiguration(
///     baseURL: "http://127.0.0.1:8016", evaluationContext: ["targetingKey": "user-42", "plan": "pro"])
/// configuration.cacheFile = AppContextConfiguration.defaultStateDirectory(forApp: "banking").map { $0 + "/remote-flags.json" }
/// let remote = try OFREPRemoteSource(configuration: configuration)
/// context.attach(remote)  // the cached values are in force when this returns
/// _ = remote.waitUntilSynced(timeout: .seconds(2))  // optional: wait for the server's values
/// ```
///
/// The source asks for every flag at once (`POST /ofrep/v1/evaluate/flags` with the
/// configuration's evaluation context: the static-context paradigm, one user per app) and
/// delivers each flag's value under its key; the context checks each against the app's
/// definition, so a value the app cannot use, or a key it does not define, is reported in the
/// context's status and ignored, while every other key keeps working. A flag the server could
/// not evaluate is reported for that key alone; one it evaluated to the code default is left
/// to the lower layers. Values resolve with reason `STATIC` and the source
/// `fleet ofrep http://127.0.0.1:8016 variant on` (`(cached)` while they come from the cache).
///
/// It keeps them current without wasting requests: each request carries the `ETag` of the
/// values in force (`If-None-Match`; a 304 means nothing changed). When the server offers an
/// event stream (ADR 0008, as `ensign serve` does) it follows it and re-fetches on each
/// change notification, and once after each connect; otherwise, or while the stream is down,
/// it fetches when ``refresh()`` asks (on foreground) or, when a
/// ``OFREPRemoteConfiguration/pollInterval`` is set, on that timer (off by default, as OFREP
/// ADR 0010 decides for static-context clients). When a request fails it keeps the
/// last good values, reports the server unavailable (`AppContext.status` is degraded, with
/// `ContextStatus.fleet` saying why) and tries again with exponential backoff and jitter, never
/// sooner than a `429` or `503` response's `Retry-After` asks.
///
/// The cache file follows the preferences file's rules: atomic replacement with fsync, 0600
/// in a private 0700 directory, a directory another user can write to refused, a corrupt file
/// set aside and not used. It holds no event stream URL (they may carry credentials).
///
/// This initializer's client is libcurl (Linux and macOS): `http://` and `https://`, event
/// streams over either, the configuration's TLS files. On iOS and the other Apple platforms
/// without libcurl, import EnsignRemoteURLSession and create the source with
/// `OFREPRemoteSource(configuration:sessionConfiguration:)`: the same source over `URLSession`,
/// in a module of its own so that this one never links Foundation.
///
/// Observers of keys the source changes run on its thread (the cache's values, on the thread
/// that attaches it). Keep the source while it should run: ``stop()``, or releasing it, stops
/// the thread and closes its connections.
public final class OFREPRemoteSource: ValueProvider {
    /// The configuration it runs with.
    public let configuration: OFREPRemoteConfiguration
    private let endpoint: HTTPEndpoint
    private let transport: any OFREPTransport
    private let cache: EvaluationCacheFile?
    private let progress = LockedCondition(RemoteProgress())
    private let running = LockedState<Running?>(nil)

    private struct Running: Sendable {
        let session: RemoteSession
        var thread: JoinableThread?
    }

    /// A source for the server `configuration` names, not started yet: attach it to a context.
    ///
    /// - Throws: ``OFREPRemoteError/invalidConfiguration(_:)`` for a base URL that is not
    ///   `http[s]://host[:port][/path]`.
    public convenience init(configuration: OFREPRemoteConfiguration) throws(OFREPRemoteError) {
        try self.init(
            configuration: configuration,
            transport: CurlTransport(connectTimeout: configuration.connectTimeout, tls: configuration.tlsFiles))
    }

    /// A source that exchanges its messages through `transport` (a scripted one in tests).
    package init(configuration: OFREPRemoteConfiguration, transport: any OFREPTransport) throws(OFREPRemoteError) {
        do {
            endpoint = try HTTPEndpoint(configuration.baseURL, allowingTLS: transport.supportsTLS)
        } catch {
            if !transport.supportsTLS, (try? HTTPEndpoint(configuration.baseURL, allowingTLS: true)) != nil {
                throw .invalidConfiguration(
                    "'\(configuration.baseURL)': https needs a transport with TLS, which this one lacks; create"
                        + " the source with OFREPRemoteSource(configuration:) (libcurl) or, on Apple platforms,"
                        + " OFREPRemoteSource(configuration:sessionConfiguration:) (URLSession)")
            }
            throw .invalidConfiguration("\(error)")
        }
        if let problem = configuration.tlsFiles?.problem { throw .invalidConfiguration(problem) }
        if let selector = configuration.selector {
            do { _ = try OFREPFlagSetSelector(parsing: selector) } catch {
                throw .invalidConfiguration("selector: \(error)")
            }
        }
        self.configuration = configuration
        self.transport = transport
        cache = configuration.cacheFile.flatMap { path in
            guard configuration.cacheMode != .disabled else { return nil }
            return EvaluationCacheFile(
                path: path,
                cacheKey: CachedEvaluation.cacheKey(
                    baseURL: configuration.baseURL, context: configuration.evaluationContext,
                    selector: configuration.selector),
                timeToLive: configuration.cacheTimeToLive)
        }
    }

    deinit { stop() }

    /// `ofrep` and the base URL: `ofrep http://127.0.0.1:8016`.
    public var name: String { "ofrep " + endpoint.description }

    /// The values the source last delivered, with the problems it found (flags the server
    /// could not evaluate, a cache it could not read or write); empty before the first delivery.
    public func currentValues() -> ProvidedValues {
        progress.withLock { $0.delivered }
    }

    /// Delivers the cached evaluation, if there is one for this server and context, before it
    /// returns (so a context starts with the last known values, offline too), then starts the
    /// source's thread, which asks the server and follows its changes. An unreachable server is
    /// not an error here: the source keeps trying and reports it unavailable. Starting a
    /// running source does nothing; a stopped one starts again.
    public func start(delivering updates: ValueProviderUpdates) {
        let session = RemoteSession(
            updates: updates, configuration: configuration, endpoint: endpoint, transport: transport, cache: cache,
            cancellation: Cancellation(), progress: progress, name: name)
        let claimed = running.withLock { running in
            guard running == nil else { return false }
            running = Running(session: session, thread: nil)
            return true
        }
        guard claimed else { return }
        progress.update { progress in
            progress.isSynced = false
            progress.isStopped = false
        }
        // Outside the lock: observers of the first values run here and may call the source.
        let initial =
            configuration.cacheMode == .networkFirst ? startFromNetwork(session, updates) : startFromCache(updates)
        let thread = JoinableThread(name: "ensign-remote") { session.run(initial) }
        let orphaned = running.withLock { running in
            guard running?.session === session else { return true }
            running?.thread = thread
            return false
        }
        if orphaned { thread.join() }  // stopped while starting: the cancelled loop ends at once
    }

    /// ``OFREPCacheMode/networkFirst``: asks the server on the caller's thread; only when that
    /// fails in a way the cache may cover (unreachable, a timeout, 5xx, 429) delivers the cache.
    private func startFromNetwork(
        _ session: RemoteSession, _ updates: ValueProviderUpdates
    ) -> RemoteSession.LoopState {
        var state = RemoteSession.LoopState()
        let answered = session.fetch(.conditional, &state)
        state.fetchedAtStart = answered
        guard !answered, state.lastFailureAllowsCache else { return state }
        let fallback = startFromCache(updates, after: state)
        // Delivering the cache marked the layer healthy; the server is still out of reach.
        if let error = progress.withLock({ $0.lastError }) { updates.reportUnavailable(error: error, from: name) }
        return fallback
    }

    /// Loads the cache and delivers it when the source has delivered nothing yet; the loop's
    /// first state either way (the cache's `ETag` makes the first request conditional).
    private func startFromCache(
        _ updates: ValueProviderUpdates, after earlier: RemoteSession.LoopState = RemoteSession.LoopState()
    ) -> RemoteSession.LoopState {
        var state = earlier
        guard let cache else { return state }
        let (cached, problems) = cache.load()
        state.pendingProblems = problems
        let hasDelivered = progress.withLock { !$0.delivered.values.isEmpty || $0.evaluations > 0 }
        guard let cached, !hasDelivered else {
            progress.update { $0.delivered.diagnostics += problems }
            return state
        }
        var provided = RemoteValues.provided(from: cached.response, origin: name + " (cached)")
        provided.diagnostics += problems + configuration.environmentDiagnostics
        state.pendingProblems = []
        state.etag = cached.etag
        state.current = cached.response
        state.servingCache = true
        let delivered = provided
        progress.update { progress in
            progress.delivered = delivered
            progress.isServingCache = true
        }
        let inForce = updates.replaceAll(
            provided.values, revision: nil, problems: provided.diagnostics, from: name + " (cached)")
        progress.update { $0.problems = inForce }
        return state
    }

    /// Stops the source: interrupts its connections and waits for its thread to end (from an
    /// observer running on that thread, it lets the thread end on its own). The fleet layer
    /// stays as it was. Later calls do nothing.
    public func stop() {
        guard let stopped = running.withLock({ $0.take() }) else { return }
        stopped.session.cancellation.cancel()
        stopped.thread?.join()
    }

    /// Every problem the context reported for the last delivery: flags the server could not
    /// evaluate (errors), values the app's definitions refuse (errors), and keys the app does not
    /// define (warnings: they are ignored), each at `ofrep:<key>`; and the cache's problems.
    public var problems: [Diagnostic] { progress.withLock { $0.problems } }

    /// Asks the server now, instead of at the next poll or retry: call it when the app returns
    /// to the foreground (ADR 0010). While an event stream is connected it changes nothing
    /// (the stream already brings every change); a `Retry-After` in force is still obeyed.
    public func refresh() {
        let session = running.withLock { $0?.session }
        session?.refresh.signal()
    }

    /// Whether the server has answered since the source started (new values or a 304).
    public var isSynced: Bool { progress.withLock { $0.isSynced } }

    /// Whether the values in force came from the cache and the server has not confirmed them yet.
    public var isServingCache: Bool { progress.withLock { $0.isServingCache } }

    /// Whether an event stream is connected now (changes then arrive within milliseconds).
    public var isStreaming: Bool { progress.withLock { $0.isStreaming } }

    /// The last failure, in a sentence (`nil` once the server answers again).
    public var lastError: String? { progress.withLock { $0.lastError } }

    /// How many responses with new values the source has delivered, across its runs.
    public var evaluationCount: Int { progress.withLock { $0.evaluations } }

    /// Waits until the server has answered since the start, at most `timeout`; returns whether it has.
    public func waitUntilSynced(timeout: Duration) -> Bool {
        progress.wait(until: { $0.isSynced || $0.isStopped }, timeout: timeout) && isSynced
    }

    /// Waits until an event stream is connected, at most `timeout`; returns whether one is.
    public func waitUntilStreaming(timeout: Duration) -> Bool {
        progress.wait(until: { $0.isStreaming || $0.isStopped }, timeout: timeout) && isStreaming
    }

    /// Waits until the source has delivered more than `count` responses with new values
    /// (``evaluationCount``), at most `timeout`; returns whether it has.
    public func waitForEvaluation(after count: Int, timeout: Duration) -> Bool {
        progress.wait(until: { $0.evaluations > count || $0.isStopped }, timeout: timeout) && evaluationCount > count
    }
}
