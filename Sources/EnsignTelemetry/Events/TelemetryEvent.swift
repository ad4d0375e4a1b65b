import Ensign

/// One event for an exporter: an OpenTelemetry `feature_flag.evaluation` event, or an outcome
/// the app tracked, with its attributes under their exported names.
public struct TelemetryEvent: Sendable, Equatable {
    /// The event's name: `feature_flag.evaluation`, or the name given to
    /// ``AppContext/track(_:value:attributes:)``.
    public var name: String
    /// When it happened, in nanoseconds since 1970 (UTC).
    public var timeUnixNanoseconds: UInt64
    /// The attributes, by their names in OpenTelemetry's registry (`feature_flag.key`, …) or,
    /// for a tracked event, the app's own.
    public var attributes: [String: JSONValue]

    /// An event.
    public init(name: String, timeUnixNanoseconds: UInt64, attributes: [String: JSONValue]) {
        self.name = name
        self.timeUnixNanoseconds = timeUnixNanoseconds
        self.attributes = attributes
    }

    /// The name OpenTelemetry's semantic conventions give an evaluation event.
    public static let evaluationEventName = "feature_flag.evaluation"
}
