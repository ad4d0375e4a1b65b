import Ensign

/// What an evaluation event needs, taken on the reading thread: the parts, with no
/// dictionary built and nothing encoded (the pipeline's thread does that).
struct EvaluationRecord: Sendable {
    let key: String
    let providerName: String
    let variant: String?
    /// The value; `nil` for a key marked `secret: true`, which is never exported.
    let value: JSONValue?
    let reason: ResolutionReason
    let errorCode: ResolutionErrorCode?
    let errorMessage: String?
    let targetingKey: String?
    let metadata: [String: JSONValue]
    let time: WallClockTime

    init(context: HookContext, details: ResolutionDetails<JSONValue>) {
        key = details.key
        providerName = context.providerName
        variant = details.variant
        value = context.isSecret ? nil : details.value
        reason = details.reason
        errorCode = details.errorCode
        errorMessage = details.errorMessage
        targetingKey = context.evaluationContext.targetingKey
        metadata = details.metadata
        time = .now()
    }

    /// The `feature_flag.evaluation` event, with the attribute names of OpenTelemetry's
    /// feature-flag registry: the result's variant, or its value when it has no variant (never
    /// a secret's); the reason in lower case; the error's type and message on errors; the flag
    /// set and version from flagd's metadata keys `flagSetId` and `version`.
    var event: TelemetryEvent {
        var attributes: [String: JSONValue] = [
            Attribute.key: .string(key), Attribute.providerName: .string(providerName),
            Attribute.reason: .string(reason.rawValue.lowercased()),
        ]
        if let variant {
            attributes[Attribute.variant] = .string(variant)
        } else if let value {
            attributes[Attribute.value] = value
        }
        if let targetingKey { attributes[Attribute.contextID] = .string(targetingKey) }
        if let set = metadata["flagSetId"]?.stringValue { attributes[Attribute.setID] = .string(set) }
        if let version = metadata["version"], let text = Self.text(version) {
            attributes[Attribute.version] = .string(text)
        }
        if let errorCode {
            attributes[Attribute.errorType] = .string(errorCode.rawValue.lowercased())
            if let errorMessage { attributes[Attribute.errorMessage] = .string(errorMessage) }
        }
        return TelemetryEvent(
            name: TelemetryEvent.evaluationEventName, timeUnixNanoseconds: time.unixNanoseconds, attributes: attributes)
    }

    /// A version given as text or a number.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        default: nil
        }
    }

    /// The attribute names, as OpenTelemetry's registry spells them.
    enum Attribute {
        static let key = "feature_flag.key"
        static let variant = "feature_flag.result.variant"
        static let value = "feature_flag.result.value"
        static let reason = "feature_flag.result.reason"
        static let providerName = "feature_flag.provider.name"
        static let contextID = "feature_flag.context.id"
        static let setID = "feature_flag.set.id"
        static let version = "feature_flag.version"
        static let errorType = "error.type"
        static let errorMessage = "feature_flag.error.message"
    }
}

extension AppContext.TrackingEvent {
    /// The tracked outcome as an event named as the app named it: the app's attributes as
    /// given, the targeting key as `feature_flag.context.id`, the value as
    /// `ensign.tracking.value`, and each evaluation-context attribute as `ensign.context.<name>`.
    var telemetryEvent: TelemetryEvent {
        var attributes = self.attributes
        if let targetingKey = evaluationContext.targetingKey {
            attributes[EvaluationRecord.Attribute.contextID] = .string(targetingKey)
        }
        if let value { attributes["ensign.tracking.value"] = .double(value) }
        for (name, value) in evaluationContext.attributes { attributes["ensign.context.\(name)"] = value }
        return TelemetryEvent(name: name, timeUnixNanoseconds: time.unixNanoseconds, attributes: attributes)
    }
}

extension WallClockTime {
    /// Nanoseconds since 1970, as OTLP counts time (0 for a time before 1970).
    var unixNanoseconds: UInt64 {
        let nanoseconds = (secondsSince1970 * 1e9).rounded()
        return nanoseconds > 0 ? UInt64(nanoseconds) : 0
    }
}
