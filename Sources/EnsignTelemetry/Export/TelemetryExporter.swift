/// Where ``FeatureFlagTelemetry`` sends its events: OpenTelemetry's collector over OTLP
/// (``OTLPHTTPExporter``), or anything else an app writes.
///
/// ``export(_:)`` is called on the telemetry's own thread, one batch at a time, never on a
/// thread that reads flags: it may block for as long as its own time-out.
public protocol TelemetryExporter: Sendable {
    /// Sends one batch and says how it went. The telemetry retries a batch for which this
    /// returns ``TelemetryExportResult/retry(after:reason:)``, with growing pauses, and drops
    /// (and counts) one that is rejected or has used up its attempts.
    func export(_ events: [TelemetryEvent]) -> TelemetryExportResult
}

/// What became of a batch given to ``TelemetryExporter/export(_:)``.
public enum TelemetryExportResult: Sendable, Equatable {
    /// The receiver has the events.
    case exported
    /// The receiver could not take them now (unreachable, overloaded): try again, after the
    /// pause it asked for when it named one.
    case retry(after: Duration?, reason: String)
    /// The receiver refused them for good (a malformed request, a wrong token): drop them.
    case rejected(reason: String)
}
