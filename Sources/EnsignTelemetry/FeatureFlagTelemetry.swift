import Ensign
import EnsignSupport

/// The hook that tells OpenTelemetry what flags did: a `feature_flag.evaluation` event for each
/// evaluation (or each exposure), the outcomes the app tracks, and the last evaluations for
/// crash reports.
///
/// ```swift
/// let exporter = try OTLPHTTPExporter(endpoint: "http://collector:4318", serviceName: "bank-app")
/// let telemetry = FeatureFlagTelemetry(exporter: exporter, recording: .exposures)
/// context.addHook(telemetry)
/// context.track("checkout.completed", value: 42.5)
/// let breadcrumbs = telemetry.recentEvaluations.map(\.description)  // for a crash report
/// ```
///
/// Events use the attribute names of OpenTelemetry's feature-flag semantic conventions
/// (`feature_flag.key`, `feature_flag.result.variant`, …). The value of a key marked
/// `secret: true` is never exported, nor kept in ``recentEvaluations``.
///
/// A read only appends to a bounded queue: one thread of the telemetry's own sends batches,
/// retries a receiver that is down with growing pauses, and drops what does not fit, counting
/// it (``statistics``). Nothing a receiver does can slow a read.
public final class FeatureFlagTelemetry: EvaluationHook {
    /// Which evaluations become events.
    public enum Recording: Sendable, Hashable {
        /// Every evaluation, as OpenTelemetry's convention describes the event.
        case everyEvaluation
        /// The first evaluation of each (key, variant, targeting key) in the context tree: what
        /// an experiment needs, at a cost a SwiftUI body that reads a key at every render can pay.
        case exposures
    }

    /// How the queue and the exports behave.
    public struct Options: Sendable, Hashable {
        /// Events held while the exporter is behind or down; past it new events are dropped
        /// and counted.
        public var queueCapacity = 10_000
        /// Events sent in one export.
        public var batchSize = 512
        /// The longest an event waits in a batch that is not full.
        public var exportInterval: Duration = .seconds(1)
        /// Attempts for one batch, the first included, while the receiver asks to retry.
        public var maximumAttempts = 5
        /// The first pause between attempts; each further pause doubles, up to ``maximumRetryPause``.
        public var initialRetryPause: Duration = .milliseconds(100)
        /// The longest pause between attempts, also for a receiver that asks for a longer one.
        public var maximumRetryPause: Duration = .seconds(5)
        /// How many distinct evaluations ``FeatureFlagTelemetry/recentEvaluations`` keeps.
        public var recentEvaluationLimit = 20

        /// The defaults.
        public init() {}
    }

    /// What became of the events so far: `recorded` is always the sum of the others.
    public struct Statistics: Sendable, Hashable {
        /// Events the hook was given (evaluations and tracked outcomes).
        public var recorded = 0
        /// Events the receiver took.
        public var exported = 0
        /// Events dropped because the queue was full (or the telemetry was shut down).
        public var dropped = 0
        /// Events in batches the receiver rejected, or that used up their attempts.
        public var failed = 0
        /// Events queued or being sent.
        public var pending = 0

        /// Counts, zero by default.
        public init(recorded: Int = 0, exported: Int = 0, dropped: Int = 0, failed: Int = 0, pending: Int = 0) {
            (self.recorded, self.exported, self.dropped, self.failed, self.pending) =
                (recorded, exported, dropped, failed, pending)
        }
    }

    /// One evaluation kept for a crash or error report.
    public struct RecentEvaluation: Sendable, Hashable, CustomStringConvertible {
        /// The full key.
        public var key: String
        /// The variant, when the flag has variants.
        public var variant: String?
        /// The value; `nil` for a key marked `secret: true`.
        public var value: JSONValue?
        /// Why the key has this value.
        public var reason: ResolutionReason
        /// The error, when the evaluation had one.
        public var errorCode: ResolutionErrorCode?
        /// When it was evaluated.
        public var time: WallClockTime

        /// `checkout.newFlow = on (TARGETING_MATCH)`, `checkout.pageSize = 50 (STATIC)`.
        public var description: String {
            let result = variant ?? value?.jsonText ?? "(secret)"
            return "\(key) = \(result) (\(errorCode.map(\.rawValue) ?? reason.rawValue))"
        }
    }

    /// Which evaluations become events.
    public let recording: Recording
    private let pipeline: TelemetryPipeline
    private let recent: LockedState<[RecentEvaluation]>
    private let recentLimit: Int

    /// A hook that sends its events to `exporter`.
    public init(exporter: some TelemetryExporter, recording: Recording = .exposures, options: Options = Options()) {
        self.recording = recording
        pipeline = TelemetryPipeline(exporter: exporter, options: options)
        recent = LockedState([])
        recentLimit = max(0, options.recentEvaluationLimit)
    }

    /// `true` in ``Recording/exposures``.
    public var runsForExposuresOnly: Bool { recording == .exposures }

    /// Records the evaluation.
    public func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue])
    {
        let record = EvaluationRecord(context: context, details: details)
        remember(record)
        pipeline.submit(.evaluation(record))
    }

    /// Records the outcome.
    public func track(_ event: AppContext.TrackingEvent) {
        pipeline.submit(.tracked(event))
    }

    /// The last distinct evaluations, newest first: each (key, variant or value) once, at its
    /// latest. Attach them to a crash or error report to know which flags the user had on.
    public var recentEvaluations: [RecentEvaluation] { recent.withLock { $0.reversed() } }

    /// What became of the events so far.
    public var statistics: Statistics { pipeline.statistics }

    /// Sends what is queued now, waiting up to `timeout`; returns whether everything was
    /// handed to the receiver (or dropped) in time. Call it before the process exits.
    @discardableResult
    public func flush(timeout: Duration = .seconds(5)) -> Bool { pipeline.flush(timeout: timeout) }

    private func remember(_ record: EvaluationRecord) {
        guard recentLimit > 0 else { return }
        let evaluation = RecentEvaluation(
            key: record.key, variant: record.variant, value: record.value, reason: record.reason,
            errorCode: record.errorCode, time: record.time)
        recent.withLock { recent in
            recent.removeAll {
                $0.key == evaluation.key && $0.variant == evaluation.variant && $0.value == evaluation.value
            }
            recent.append(evaluation)
            if recent.count > recentLimit { recent.removeFirst(recent.count - recentLimit) }
        }
    }
}
