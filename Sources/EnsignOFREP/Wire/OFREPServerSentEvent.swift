import Ensign

/// One server-sent event of an OFREP event stream (ADR 0008, event-streams.yaml `sseEvent`):
/// the SSE envelope around ``OFREPEventData``.
///
/// ```swift
/// let event = OFREPServerSentEvent(id: "7", data: OFREPEventData(type: OFREPEventData.refetchEvaluationType, etag: "\"7\""))
/// print(event.streamText, terminator: "")
/// // id: 7
/// // event: message
/// // data: {"etag":"\"7\"","type":"refetchEvaluation"}
/// //
/// ```
public struct OFREPServerSentEvent: Sendable, Hashable {
    /// The event's id, which a reconnecting client sends back as `Last-Event-ID`.
    public var id: String?
    /// The SSE event name; always `message` for OFREP (clients route on `data.type`).
    public var event: String
    /// The payload.
    public var data: OFREPEventData
    /// The reconnection delay the server suggests, in milliseconds.
    public var retryMilliseconds: Int?

    /// Creates an event.
    public init(id: String? = nil, event: String = "message", data: OFREPEventData, retryMilliseconds: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retryMilliseconds = retryMilliseconds
    }

    /// The event as it goes on the wire: its fields, one a line, and the blank line that ends it.
    ///
    /// The data is compact JSON, which has no line breaks, so it is a single `data:` line; an
    /// id with a line break (which SSE cannot carry) is left out.
    public var streamText: String {
        var text = ""
        if let id, !id.contains(where: \.isNewline) { text += "id: \(id)\n" }
        text += "event: \(event)\n"
        if let retryMilliseconds { text += "retry: \(retryMilliseconds)\n" }
        text += "data: \(data.jsonText)\n\n"
        return text
    }

    /// The event as a JSON object (the `sseEvent` schema: `data` is the payload's JSON text).
    public var json: JSONValue {
        var members: [String: JSONValue] = ["event": .string(event), "data": .string(data.jsonText)]
        if let id { members["id"] = .string(id) }
        if let retryMilliseconds { members["retry"] = .int(retryMilliseconds) }
        return .object(members)
    }
}

extension OFREPServerSentEvent {
    /// Reads an event from the `sseEvent` JSON object (its `data` a string holding JSON).
    ///
    /// - Throws: ``OFREPWireError`` for a missing `data`, data that is not event data, or a
    ///   member of the wrong type.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        let dataText = try body.requiredString("data")
        let data: OFREPEventData
        do {
            data = try OFREPEventData(jsonText: dataText)
        } catch {
            throw OFREPWireError(path: "data" + (error.path.isEmpty ? "" : ".\(error.path)"), message: error.message)
        }
        self.init(
            id: try body.optionalString("id"), event: try body.optionalString("event") ?? "message", data: data,
            retryMilliseconds: try body.optionalInt("retry"))
    }

    /// Reads one event from its lines on the wire (the text up to the blank line that ends
    /// it), as the SSE specification reads fields: `name: value`, one space after the colon
    /// dropped, `data` lines joined with line feeds, comments (`:` first) and unknown fields ignored.
    ///
    /// - Throws: ``OFREPWireError`` when there is no `data` field or it is not event data.
    public init(streamText: String) throws(OFREPWireError) {
        var id: String?
        var event = "message"
        var dataLines: [Substring] = []
        var retry: Int?
        for line in streamText.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        {
            if line.first == ":" { continue }
            let name: Substring
            var value: Substring
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                value = line[line.index(after: colon)...]
                if value.first == " " { value = value.dropFirst() }
            } else {
                name = line
                value = ""
            }
            switch name {
            case "id": id = String(value)
            case "event": event = String(value)
            case "data": dataLines.append(value)
            case "retry": retry = Int(value) ?? retry
            default: continue
            }
        }
        guard !dataLines.isEmpty else { throw OFREPWireError(path: "data", message: "the event has no data field") }
        let data: OFREPEventData
        do {
            data = try OFREPEventData(jsonText: dataLines.joined(separator: "\n"))
        } catch {
            throw OFREPWireError(path: "data" + (error.path.isEmpty ? "" : ".\(error.path)"), message: error.message)
        }
        self.init(id: id, event: event, data: data, retryMilliseconds: retry)
    }
}
