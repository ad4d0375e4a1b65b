import Ensign

/// The JSON in an OFREP server-sent event's `data` (event-streams.yaml, `sseEventData`):
/// what happened, and the flag configuration's new validators.
///
/// ```swift
/// let data = OFREPEventData(type: OFREPEventData.refetchEvaluationType, etag: "\"7\"", lastModified: .seconds(1771622898))
/// print(data.jsonText)  // {"etag":"\"7\"","lastModified":1771622898,"type":"refetchEvaluation"}
/// ```
public struct OFREPEventData: Sendable, Hashable {
    /// The event type; `refetchEvaluation` is the only one defined, and a client ignores others.
    public var type: String
    /// The new flag configuration's validator, sent back as `flagConfigEtag`.
    public var etag: String?
    /// When the flag configuration last changed, sent back as `flagConfigLastModified`.
    public var lastModified: LastModified?

    /// A time as the specification allows it: Unix seconds (preferred) or an ISO 8601 string.
    public enum LastModified: Sendable, Hashable {
        /// Seconds since 1970-01-01 UTC.
        case seconds(Int)
        /// An ISO 8601 date-time, as sent.
        case dateTime(String)
    }

    /// The type of an event that asks the client to evaluate again.
    public static let refetchEvaluationType = "refetchEvaluation"

    /// Creates event data.
    public init(type: String, etag: String? = nil, lastModified: LastModified? = nil) {
        self.type = type
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The data as a JSON object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["type": .string(type)]
        if let etag { members["etag"] = .string(etag) }
        switch lastModified {
        case .seconds(let seconds): members["lastModified"] = .int(seconds)
        case .dateTime(let text): members["lastModified"] = .string(text)
        case nil: break
        }
        return .object(members)
    }

    /// The data as compact JSON text, members sorted: what goes after `data: `.
    public var jsonText: String { json.jsonText }
}

extension OFREPEventData {
    /// Reads event data.
    ///
    /// - Throws: ``OFREPWireError`` for a missing `type`, a non-string `etag`, or a
    ///   `lastModified` that is neither a non-negative integer nor a string.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        var lastModified: LastModified?
        switch body.members["lastModified"] {
        case nil: break
        case .int(let seconds) where seconds >= 0: lastModified = .seconds(seconds)
        case .string(let text): lastModified = .dateTime(text)
        case let other?:
            throw OFREPWireError(
                path: "lastModified",
                message: "expected Unix seconds (a non-negative integer) or a date-time string, found "
                    + OFREPObjectReader.describe(other))
        }
        self.init(
            type: try body.requiredString("type"), etag: try body.optionalString("etag"), lastModified: lastModified)
    }

    /// Parses and reads event data; see ``init(json:)``.
    public init(jsonText: String) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(Array(jsonText.utf8)))
    }
}
