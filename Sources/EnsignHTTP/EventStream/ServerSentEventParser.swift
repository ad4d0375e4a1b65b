/// Reads a `text/event-stream` body (the WHATWG "server-sent events" format) incrementally:
/// feed it the bytes as they arrive, cut anywhere, and it returns each event once its blank
/// line has arrived.
///
/// The events do not depend on where the bytes were cut: a line may end in CR, LF or CRLF,
/// and a CR at the end of one piece followed by an LF at the start of the next is one line
/// end, as a leading byte-order mark split across pieces is still skipped. It is bounded: a
/// line longer than ``maximumLineLength`` or an event's data longer than
/// ``maximumDataLength`` ends the stream with an error (a server that never sends a line
/// feed cannot make the client buffer without limit).
///
/// ```swift
/// var parser = ServerSentEventParser()
/// _ = try parser.feed(Array("data: {\"type\":\"refetch".utf8))  // []
/// let events = try parser.feed(Array("Evaluation\"}\n\n".utf8))  // [data {"type":"refetchEvaluation"}]
/// ```
///
/// Comments (`:` lines) and unknown fields are ignored; `retry:` sets ``retry``; `id:`
/// values with a NUL are ignored, as the format says. An event cut off by the end of the
/// stream is not dispatched.
package struct ServerSentEventParser: Sendable {
    /// The longest line accepted, in bytes (64 KiB by default).
    package let maximumLineLength: Int
    /// The most data one event may carry, in bytes (1 MiB by default).
    package let maximumDataLength: Int

    /// The reconnection delay the server last asked for (`retry:`), in milliseconds.
    package private(set) var retry: Int?
    /// The last event ID the stream set, what a reconnection sends as `Last-Event-ID`.
    package private(set) var lastEventID = ""

    private var line: [UInt8] = []
    /// Whether the last byte was a CR, so an LF right after it ends no second line.
    private var afterCarriageReturn = false
    /// How many bytes of a leading byte-order mark have been matched (3: settled, skipped or not).
    private var byteOrderMarkMatched = 0
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A parser at the start of a stream.
    package init(maximumLineLength: Int = 64 << 10, maximumDataLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
        self.maximumDataLength = maximumDataLength
    }

    /// Adds `bytes` and returns the events they complete, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(ServerSentEventError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byteOrderMarkMatched < 3 {
                if byte == Self.byteOrderMark[byteOrderMarkMatched], line.count == byteOrderMarkMatched {
                    byteOrderMarkMatched += 1
                    if byteOrderMarkMatched == 3 { line.removeAll() } else { line.append(byte) }
                    continue
                }
                byteOrderMarkMatched = 3  // not a mark: the bytes held so far are the line's
            }
            switch byte {
            case UInt8(ascii: "\n") where afterCarriageReturn:
                afterCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = try endOfLine() { events.append(event) }
                line.removeAll(keepingCapacity: true)
            default:
                afterCarriageReturn = false
                line.append(byte)
                if line.count > maximumLineLength { throw .tooLarge("line", limit: maximumLineLength) }
            }
        }
        return events
    }

    /// Interprets the line just ended; a blank line dispatches the event gathered so far.
    private mutating func endOfLine() throws(ServerSentEventError) -> ServerSentEvent? {
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }  // a comment
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[($0 + 1)...] } ?? line[line.endIndex...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
            if data.count > maximumDataLength { throw .tooLarge("event data", limit: maximumDataLength) }
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                if let milliseconds = Int(String(decoding: value, as: UTF8.self)) { retry = milliseconds }
            }
        default:
            break  // unknown fields are ignored
        }
        return nil
    }

    /// The event gathered since the last blank line, if it has data; resets the event either way.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID)
    }
}
