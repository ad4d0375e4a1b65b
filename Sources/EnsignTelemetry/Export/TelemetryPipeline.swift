import Ensign
import EnsignSupport

/// The queue between the reading threads and an exporter: bounded, drained in batches by one
/// thread of its own, with retries and exact counts of what was dropped.
///
/// A reading thread only appends to the queue under a short lock (or counts a drop when the
/// queue is full): it never waits for the exporter, a full queue or the network.
final class TelemetryPipeline: Sendable {
    /// An event as the reading thread leaves it: the parts, not yet the exported attributes,
    /// which the pipeline's thread builds.
    enum Pending: Sendable {
        case evaluation(EvaluationRecord)
        case tracked(AppContext.TrackingEvent)

        /// The event an exporter gets.
        var event: TelemetryEvent {
            switch self {
            case .evaluation(let record): record.event
            case .tracked(let tracked): tracked.telemetryEvent
            }
        }
    }

    struct State {
        var queue: [Pending] = []
        var counts = FeatureFlagTelemetry.Statistics()
        var inFlight = 0
        var flushWanted = false
        var stopping = false
    }

    private let state: LockedCondition<State>
    private let options: FeatureFlagTelemetry.Options
    private let thread: JoinableThread

    init(exporter: some TelemetryExporter, options: FeatureFlagTelemetry.Options) {
        let state = LockedCondition(State())
        self.state = state
        self.options = options
        thread = JoinableThread(name: "ensign-telemetry") {
            Self.run(state: state, exporter: exporter, options: options)
        }
    }

    deinit {
        stop()
        thread.join()
    }

    /// Queues `event`, or counts it dropped when the queue is full or the pipeline stopped.
    func submit(_ event: Pending) {
        let wake = state.withLock { state -> Bool in
            state.counts.recorded += 1
            guard !state.stopping, state.queue.count < options.queueCapacity else {
                state.counts.dropped += 1
                return false
            }
            state.queue.append(event)
            return state.queue.count == options.batchSize
        }
        if wake { state.broadcast() }
    }

    /// The counts so far.
    var statistics: FeatureFlagTelemetry.Statistics {
        state.withLock { state in
            var counts = state.counts
            counts.pending = state.queue.count + state.inFlight
            return counts
        }
    }

    /// Sends what is queued now; returns whether the queue emptied within `timeout`.
    func flush(timeout: Duration) -> Bool {
        state.update { $0.flushWanted = true }
        return state.wait(until: { $0.queue.isEmpty && $0.inFlight == 0 }, timeout: timeout)
    }

    /// Stops taking events; the thread sends what is queued, one attempt a batch, and ends.
    func stop() {
        state.update { $0.stopping = true }
    }

    /// The pipeline's thread: waits for a full batch, a flush, a stop or the export interval,
    /// sends one batch, and goes on until stopped with an empty queue.
    private static func run(
        state: LockedCondition<State>, exporter: some TelemetryExporter, options: FeatureFlagTelemetry.Options
    ) {
        while true {
            _ = state.wait(
                until: { $0.queue.count >= options.batchSize || $0.flushWanted || $0.stopping },
                timeout: options.exportInterval)
            let (batch, stopping) = state.withLock { state -> ([Pending], Bool) in
                let count = min(options.batchSize, state.queue.count)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                state.inFlight = count
                if state.queue.isEmpty { state.flushWanted = false }
                return (batch, state.stopping)
            }
            if batch.isEmpty {
                if stopping { return }
                continue
            }
            let exported = send(
                batch.map(\.event), to: exporter, options: options, state: state, stopping: stopping)
            state.update { state in
                state.inFlight = 0
                if exported { state.counts.exported += batch.count } else { state.counts.failed += batch.count }
            }
        }
    }

    /// Exports `events`, retrying with doubling pauses (or the pause the receiver asked for,
    /// within the maximum) up to the attempts allowed; once stopping, one attempt.
    private static func send(
        _ events: [TelemetryEvent], to exporter: some TelemetryExporter, options: FeatureFlagTelemetry.Options,
        state: LockedCondition<State>, stopping: Bool
    ) -> Bool {
        var pause = options.initialRetryPause
        let attempts = stopping ? 1 : max(1, options.maximumAttempts)
        for attempt in 1...attempts {
            switch exporter.export(events) {
            case .exported: return true
            case .rejected: return false
            case .retry(let asked, _):
                guard attempt < attempts else { return false }
                let wait = min(asked ?? pause, options.maximumRetryPause)
                // A stop cuts the pause short, and the attempt after it is the last.
                if state.wait(until: { $0.stopping }, timeout: wait) { return exporter.export(events) == .exported }
                pause = min(pause * 2, options.maximumRetryPause)
            }
        }
        return false
    }
}
