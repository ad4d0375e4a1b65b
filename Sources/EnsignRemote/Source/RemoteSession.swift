import Ensign
import EnsignHTTP
import EnsignOFREP
import EnsignSupport

/// The remote source's work loop, on its own thread: fetch the bulk evaluation (with
/// `If-None-Match`), deliver what changed, then follow the server's event stream when it
/// offers one (re-fetching on each `refetchEvaluation`, and at once after each connect), or
/// poll. On a failure it reports the server unavailable, keeps the last good values, and waits
/// with backoff and jitter, or as long as a `Retry-After` asks; when the server answers again
/// it catches up with one request.
final class RemoteSession: Sendable {
    /// The context's handle: deliveries and health go through it.
    let updates: ValueProviderUpdates
    let configuration: OFREPRemoteConfiguration
    let endpoint: HTTPEndpoint
    let transport: any OFREPTransport
    let cache: EvaluationCacheFile?
    let cancellation: Cancellation
    /// Wakes the loop out of a poll or backoff wait (``OFREPRemoteSource/refresh()``).
    let refresh = WakeSignal.make()
    let progress: LockedCondition<RemoteProgress>
    /// `ofrep http://127.0.0.1:8016`: the provenance and status source of live values.
    let name: String

    /// The loop's own state; only the loop's thread touches it.
    struct LoopState {
        /// The `ETag` of the values in force, sent as `If-None-Match`.
        var etag: String?
        /// The flags in force (without event streams), to skip writing an unchanged cache.
        var current: OFREPBulkEvaluationResponse?
        /// Whether the values in force were delivered from the cache (relabelled after a 304).
        var servingCache = false
        /// The event streams of the last response that the source can follow.
        var streams: [OFREPEventStream] = []
        /// Failed requests in a row.
        var failures = 0
        /// Event stream connections that failed in a row before their head arrived.
        var streamFailures = 0
        /// No request before this instant (`Retry-After`).
        var notBefore: ContinuousClock.Instant?
        /// Problems to report with the next delivery (the cache's).
        var pendingProblems: [Diagnostic] = []
        /// The event stream's last event ID, sent as `Last-Event-ID` on reconnection.
        var lastEventID = ""
        /// Whether the last failure is one a cached evaluation may cover (the server unreachable,
        /// slow, or failing with 5xx or 429), as opposed to a refusal (400, 401, 403).
        var lastFailureAllowsCache = false
        /// How the request network-first's start made went (it answered, or not): the loop
        /// begins from it instead of asking again; `nil` when the start asked nothing.
        var fetchedAtStart: Bool?
    }

    init(
        updates: ValueProviderUpdates, configuration: OFREPRemoteConfiguration, endpoint: HTTPEndpoint,
        transport: any OFREPTransport, cache: EvaluationCacheFile?, cancellation: Cancellation,
        progress: LockedCondition<RemoteProgress>, name: String
    ) {
        self.updates = updates
        self.configuration = configuration
        self.endpoint = endpoint
        self.transport = transport
        self.cache = cache
        self.cancellation = cancellation
        self.progress = progress
        self.name = name
    }

    /// Runs until cancelled, starting from `state` (the cache's evaluation, if one was delivered).
    func run(_ initial: LoopState) {
        var state = initial
        while !cancellation.isCancelled {
            let answered = state.fetchedAtStart ?? fetch(.conditional, &state)
            state.fetchedAtStart = nil
            guard answered else {
                if cancellation.isCancelled || pause(failureDelay(state)) { break }
                continue
            }
            if configuration.followsEventStreams, transport.supportsEventStreams, let stream = state.streams.first {
                let connected = follow(stream, &state)
                if cancellation.isCancelled { break }
                state.streamFailures = connected ? 0 : state.streamFailures + 1
                // A stream that failed to connect waits (polling meanwhile); one that ran and
                // ended reconnects after a fresh fetch at once.
                if !connected, pause(streamRetryDelay(state)) { break }
                continue
            }
            if pause(configuration.pollInterval ?? Self.noPolling) { break }
        }
        progress.update { progress in
            progress.isStopped = true
            progress.isStreaming = false
        }
    }

    /// The wait between polls when ``OFREPRemoteConfiguration/pollInterval`` is `nil`: a year,
    /// so only event streams, reconnections and ``refresh`` fetch.
    static let noPolling = Duration.seconds(365 * 24 * 3600)

    // MARK: Fetching

    /// What triggered a fetch.
    enum Trigger {
        /// A poll, a start or a reconnection: `If-None-Match` with the `ETag` in force.
        case conditional
        /// A `refetchEvaluation` event: its metadata goes in the query (ADR 0008).
        case event(OFREPEventData)
    }

    /// Fetches the bulk evaluation and delivers it; returns whether the server answered (200 or 304).
    @discardableResult
    func fetch(_ trigger: Trigger, _ state: inout LoopState) -> Bool {
        if let notBefore = state.notBefore {
            let remaining = ContinuousClock.now.duration(to: notBefore)
            if remaining > .zero, cancellation.sleep(for: remaining) { return false }
            state.notBefore = nil
        }
        let response: HTTPResponse
        do {
            response = try transport.send(
                request(trigger, state), to: endpoint, timeout: configuration.requestTimeout,
                cancellation: cancellation)
        } catch .cancelled {
            return false
        } catch {
            fail("\(error)", &state, cacheCovers: true)
            return false
        }
        guard !cancellation.isCancelled else { return false }
        switch response.status {
        case 200:
            return accept(response, &state)
        case 304:
            state.failures = 0
            if state.servingCache, let current = state.current {
                // The cache is the server's current evaluation: the same values, now live.
                deliver(current, &state)
            } else {
                updates.reportHealthy(revision: nil, from: name)
            }
            progress.update { progress in
                progress.notModified += 1
                progress.isSynced = true
                progress.lastError = nil
            }
            return true
        case 429, 503:
            let wait = response.head.header("Retry-After").flatMap { RetryAfter.delay($0) }
            if let wait { state.notBefore = ContinuousClock.now + wait }
            let after = wait.map { ", retrying after \($0.components.seconds) s" } ?? ""
            fail("the server answered \(response.status) \(response.head.reason)\(after)", &state, cacheCovers: true)
        case 401, 403:
            fail("the server refused the credentials (\(response.status) \(response.head.reason))", &state)
        case 400:
            let failure = try? OFREPBulkEvaluationFailure(json: JSONValue(jsonBytes: response.body))
            let reason = failure.map { " (\($0.errorCode)\($0.errorDetails.map { ": \($0)" } ?? ""))" } ?? ""
            fail("the server refused the evaluation context\(reason)", &state)
        default:
            fail(
                "the server answered \(response.status) \(response.head.reason)", &state,
                cacheCovers: response.status >= 500)
        }
        return false
    }

    /// The bulk evaluation request: the context as the body, `If-None-Match` or the event's metadata.
    private func request(_ trigger: Trigger, _ state: LoopState) -> HTTPRequest {
        var path = "/ofrep/v1/evaluate/flags"
        var headers = [
            (name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json"),
        ]
        if let etag = state.etag { headers.append((name: "If-None-Match", value: etag)) }
        if case .event(let data) = trigger {
            var query: [String] = []
            if let etag = data.etag { query.append("flagConfigEtag=" + Self.percentEncoded(etag)) }
            switch data.lastModified {
            case .seconds(let seconds)?: query.append("flagConfigLastModified=\(seconds)")
            case .dateTime(let text)?: query.append("flagConfigLastModified=" + Self.percentEncoded(text))
            case nil: break
            }
            if !query.isEmpty { path += "?" + query.joined(separator: "&") }
        }
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name: name, value: value))
        }
        if let selector = configuration.selector { headers.append((name: "Flagd-Selector", value: selector)) }
        let body = OFREPEvaluationRequest(evaluationContext: configuration.evaluationContext).jsonText
        return HTTPRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8))
    }

    /// Reads a 200: decodes it, keeps it on disk, delivers it.
    private func accept(_ response: HTTPResponse, _ state: inout LoopState) -> Bool {
        let decoded: OFREPBulkEvaluationResponse
        do {
            decoded = try OFREPBulkEvaluationResponse(jsonBytes: response.body)
        } catch {
            fail("the server's bulk evaluation is not valid OFREP: \(error)", &state)
            return false
        }
        state.failures = 0
        state.etag = response.head.header("ETag")
        state.streams = decoded.eventStreams.filter { $0.type == OFREPEventStream.serverSentEventsType }
        let flags = OFREPBulkEvaluationResponse(flags: decoded.flags, metadata: decoded.metadata)
        if let cache, flags != state.current || state.servingCache {
            do {
                try cache.store(CachedEvaluation(response: flags, etag: state.etag, writtenAt: .now()))
            } catch {
                state.pendingProblems.append(
                    Diagnostic(
                        .warning, at: .unknown(cache.path),
                        "the remote cache could not be written (\(error)); the new values are in force, but a start"
                            + " without the network would have older ones"))
            }
        }
        state.current = flags
        deliver(flags, &state)
        progress.update { $0.evaluations += 1 }
        return true
    }

    /// Delivers `flags` as the live fleet layer, with the problems waiting to be reported.
    private func deliver(_ flags: OFREPBulkEvaluationResponse, _ state: inout LoopState) {
        var provided = RemoteValues.provided(from: flags, origin: name)
        provided.diagnostics += state.pendingProblems + configuration.environmentDiagnostics
        state.pendingProblems = []
        state.servingCache = false
        let delivered = provided
        // Before delivering: a waiter woken by the count reads what was delivered.
        progress.update { progress in
            progress.delivered = delivered
            progress.isServingCache = false
        }
        let inForce = updates.replaceAll(provided.values, revision: nil, problems: provided.diagnostics, from: name)
        progress.update { progress in
            progress.problems = inForce
            progress.isSynced = true
            progress.lastError = nil
        }
    }

    /// Records a failed request; `cacheCovers` when a cached evaluation may stand in for the
    /// answer (the server unreachable, slow, or failing), not when it refused the request.
    private func fail(_ error: String, _ state: inout LoopState, cacheCovers: Bool = false) {
        state.failures += 1
        state.lastFailureAllowsCache = cacheCovers
        // Before the status: whoever sees the context degraded finds the reason here too.
        progress.update { progress in
            progress.failures += 1
            progress.lastError = error
        }
        updates.reportUnavailable(error: error, from: name)
    }

    // MARK: Waiting

    /// Waits `duration`, or less when ``refresh`` is signalled; returns whether it was cancelled.
    private func pause(_ duration: Duration) -> Bool {
        cancellation.sleep(for: duration, orUntil: refresh) == .cancelled
    }

    /// Exponential backoff with jitter (each wait between half and all of the nominal one),
    /// or longer when a `Retry-After` asks.
    private func failureDelay(_ state: LoopState) -> Duration {
        let backoff = Self.backoff(
            afterFailures: state.failures, initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        guard let notBefore = state.notBefore else { return backoff }
        return max(backoff, ContinuousClock.now.duration(to: notBefore))
    }

    /// How long to wait before connecting again to a stream that would not connect: backoff, no
    /// longer than the poll interval (the loop polls once per wait).
    private func streamRetryDelay(_ state: LoopState) -> Duration {
        let backoff = Self.backoff(
            afterFailures: state.streamFailures, initial: configuration.initialBackoff,
            maximum: configuration.maximumBackoff)
        return min(backoff, configuration.pollInterval ?? configuration.maximumBackoff)
    }

    /// The nominal delay doubles from `initial` up to `maximum`; the result is jittered down by
    /// up to a half, so a fleet of apps does not reconnect in step.
    static func backoff(afterFailures failures: Int, initial: Duration, maximum: Duration) -> Duration {
        let nominal = min(initial * (1 << min(max(failures - 1, 0), 20)), maximum)
        return nominal * Double.random(in: 0.5...1)
    }

    /// `text` with everything but unreserved characters percent-encoded, for a query value.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if byte.isASCIIAlphanumeric || "-._~".utf8.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return encoded
    }
}
