import Dispatch
import Ensign
import EnsignOFREP
import EnsignSupport

/// What one ``OFREPServer`` is made of, shared by its ports: the service, the event-stream hub,
/// the connection table, the metrics, and the tick that drives the hub and the refusal log.
final class ServerCore: Sendable {
    let service: OFREPService
    let options: OFREPServerOptions
    let limits: OFREPServerLimits
    let table: ConnectionTable
    let hub: EventStreamHub
    let metrics = ServerMetrics()
    /// The context's evaluation counter (`ensign_flag_evaluations_total`, `ensign stats`): OFREP
    /// evaluates from a snapshot, which runs no hooks, so the server counts its evaluations here.
    let evaluations: EvaluationCounter
    let startedAt = ContinuousClock.now
    private let state = LockedState(State())
    private let queue = DispatchQueue(label: "ensign.serve.tick")

    private struct State {
        var isDraining = false
        var isStopped = false
        var reported = ConnectionTable.Counters()
        var reportedStreamRefusals = 0
        var lastReport = ContinuousClock.now - .seconds(1)
        var lastStallCheck = ContinuousClock.now
        /// libmicrohttpd's messages: when one was last written, and how many were held back since.
        var lastLibraryMessage = ContinuousClock.now - .seconds(1)
        var heldLibraryMessages = 0
    }

    init(service: OFREPService, options: OFREPServerOptions, limits: OFREPServerLimits) {
        self.service = service
        self.options = options
        self.limits = limits
        service.context.countEvaluations()
        // Counting, once on, stays on for the life of the context.
        evaluations = service.context.evaluationCounter!
        table = ConnectionTable(
            settings: ConnectionTable.Settings(
                limit: limits.connections, pressureMark: limits.connections - max(1, limits.connections / 16),
                idleTimeout: options.idleTimeout, headerTimeout: options.headerTimeout,
                requestTimeout: options.requestTimeout))
        hub = EventStreamHub(
            service: service, limit: limits.eventStreams, queueCapacity: options.eventQueueCapacity,
            keepAliveInterval: options.eventKeepAliveInterval)
    }

    /// Starts the table's reaper, the hub and the tick.
    func start() {
        table.startReaping()
        hub.start()
        scheduleTick()
    }

    var isDraining: Bool { state.withLock { $0.isDraining } }

    func beginDraining() { state.withLock { $0.isDraining = true } }

    /// Stops the tick and the reaper.
    func stop() {
        state.withLock { $0.isStopped = true }
        table.stop()
    }

    /// Every poll interval, on a Dispatch queue of its own (never in a task: the workers must
    /// never wait for Swift's cooperative pool, nor it for them).
    private func scheduleTick() {
        let interval = DispatchTimeInterval.nanoseconds(Int(options.generationPollInterval.nanosecondsRounded))
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, !self.state.withLock({ $0.isStopped }) else { return }
            let now = ContinuousClock.now
            self.hub.tick(now: now)
            if now - self.state.withLock({ $0.lastStallCheck }) >= .seconds(1) {
                self.state.withLock { $0.lastStallCheck = now }
                for ticket in self.hub.stalledConnections(now: now, limit: self.options.requestTimeout) {
                    self.table.cutStalledStream(ticket)
                }
            }
            self.logRefusals(now: now)
            self.logHeldLibraryMessages(now: now)
            self.scheduleTick()
        }
    }

    /// One of libmicrohttpd's messages (a failed TLS handshake, say): written at most once a
    /// second, the rest counted, so that a scanner's garbage cannot flood the log.
    func libraryMessage(_ message: String) {
        let now = ContinuousClock.now
        let isWritten = state.withLock { state -> Bool in
            guard now - state.lastLibraryMessage >= .seconds(1) else {
                state.heldLibraryMessages += 1
                return false
            }
            state.lastLibraryMessage = now
            return true
        }
        if isWritten { options.log(message) }
    }

    private func logHeldLibraryMessages(now: ContinuousClock.Instant) {
        let held = state.withLock { state -> Int in
            guard state.heldLibraryMessages > 0, now - state.lastLibraryMessage >= .seconds(1) else { return 0 }
            defer {
                state.heldLibraryMessages = 0
                state.lastLibraryMessage = now
            }
            return state.heldLibraryMessages
        }
        if held > 0 { options.log("\(held) more messages from libmicrohttpd in the last second or so, not written") }
    }

    /// Logs what was refused or cut since the last report, at most once a second: a crowd of
    /// refused clients must not flood the log, nor cost a write each.
    private func logRefusals(now: ContinuousClock.Instant) {
        let counters = table.counters
        let streamRefusals = hub.refusedCount
        let lines = state.withLock { state -> [String] in
            guard now - state.lastReport >= .seconds(1) else { return [] }
            var lines: [String] = []
            let refused = counters.refusedAtLimit - state.reported.refusedAtLimit
            if refused > 0 {
                lines.append(
                    "refused \(refused) connections at accept: \(limits.connections) open and none idle to reclaim")
            }
            let reclaimed = counters.reclaimed - state.reported.reclaimed
            if reclaimed > 0 { lines.append("closed \(reclaimed) idle connections to make room for new ones") }
            let slow = counters.headerTimeouts - state.reported.headerTimeouts
            if slow > 0 {
                lines.append("closed \(slow) connections whose header section took over \(options.headerTimeout)")
            }
            let streams = streamRefusals - state.reportedStreamRefusals
            if streams > 0 {
                lines.append("refused \(streams) event streams (503): \(limits.eventStreams) are open")
            }
            if !lines.isEmpty {
                state.lastReport = now
                state.reported = counters
                state.reportedStreamRefusals = streamRefusals
            }
            return lines
        }
        for line in lines { options.log(line) }
    }
}
