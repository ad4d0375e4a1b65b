import Ensign

/// The body of a bulk evaluation's 200 (`POST /ofrep/v1/evaluate/flags`): every flag's
/// evaluation, the flag set's metadata, and where to hear of changes.
///
/// ```swift
/// let response = try OFREPBulkEvaluationResponse(jsonBytes: body)
/// let values = Dictionary(uniqueKeysWithValues: response.flags.map { ($0.key, $0) })
/// ```
public struct OFREPBulkEvaluationResponse: Sendable, Hashable {
    /// Every flag's evaluation, a success or a failure each.
    public var flags: [OFREPFlagEvaluation]
    /// The flag set's metadata: Booleans, strings and numbers.
    public var metadata: [String: JSONValue]
    /// Change-notification connections (ADR 0008); empty when the server offers none.
    public var eventStreams: [OFREPEventStream]

    /// Creates a response.
    public init(
        flags: [OFREPFlagEvaluation], metadata: [String: JSONValue] = [:], eventStreams: [OFREPEventStream] = []
    ) {
        self.flags = flags
        self.metadata = metadata
        self.eventStreams = eventStreams
    }

    /// The response as a JSON object; empty `metadata` and `eventStreams` are left out.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["flags": .array(flags.map(\.json))]
        if !metadata.isEmpty { members["metadata"] = .object(metadata) }
        if !eventStreams.isEmpty { members["eventStreams"] = .array(eventStreams.map(\.json)) }
        return .object(members)
    }

    /// The response as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPBulkEvaluationResponse {
    /// Reads a response from a parsed body.
    ///
    /// - Throws: ``OFREPWireError`` for a missing or non-array `flags`, any item that is
    ///   neither a success nor a failure (the path names it: `flags[2].reason`), two items with
    ///   the same key, bad metadata or a bad event stream entry.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        guard let items = try body.optionalArray("flags") else {
            throw OFREPWireError(path: "flags", message: "missing")
        }
        var flags: [OFREPFlagEvaluation] = []
        flags.reserveCapacity(items.count)
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            let flag = try OFREPFlagEvaluation(json: item, path: "flags[\(index)]")
            guard seen.insert(flag.key).inserted else {
                throw OFREPWireError(path: "flags[\(index)].key", message: "'\(flag.key)' appears twice")
            }
            flags.append(flag)
        }
        var streams: [OFREPEventStream] = []
        for (index, entry) in (try body.optionalArray("eventStreams") ?? []).enumerated() {
            streams.append(try OFREPEventStream(json: entry, path: "eventStreams[\(index)]"))
        }
        self.init(flags: flags, metadata: try body.metadata(), eventStreams: streams)
    }

    /// Parses and reads a response body; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
