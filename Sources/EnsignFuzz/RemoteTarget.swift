import EnsignHTTP

/// The `remote` target: what an OFREP server (or anything at its address) sends the remote
/// source, read without a socket by the readers the source uses.
///
/// Input format: one selector byte, one cut byte, then the bytes.
///
/// - selector `S`: a `text/event-stream` body, fed to ``ServerSentEventParser`` in pieces of
///   at most the cut byte's value (0: all at once); checked: the same events whatever the
///   cut, no event's data longer than the limit;
/// - any other byte: the same, as `S` (later modes take the other selectors).
enum RemoteTarget {
    /// Small limits, so that inputs reach them.
    private static let lineLimit = 512
    private static let dataLimit = 2048

    /// Runs one input.
    static func run(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let cut = Int(bytes[1])
        let payload = Array(bytes[2...])
        eventStream(payload, cut: cut)
    }

    /// What a stream gave: its events, then whether it ended in an error.
    private struct Parsed: Equatable {
        var events: [ServerSentEvent] = []
        var failed = false
        var retry: Int?
        var lastEventID = ""

        /// Whether `other`, the same bytes cut elsewhere, gave the same: a failing stream may
        /// lose the events completed in the piece that fails, never give different ones.
        func agrees(with other: Parsed) -> Bool {
            guard failed == other.failed else { return false }
            guard failed else { return self == other }
            let common = min(events.count, other.events.count)
            return events.prefix(common) == other.events.prefix(common)
        }
    }

    private static func parse(_ bytes: [UInt8], cut: Int) -> Parsed {
        var parser = ServerSentEventParser(maximumLineLength: lineLimit, maximumDataLength: dataLimit)
        var parsed = Parsed()
        let step = cut == 0 ? max(bytes.count, 1) : cut
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            do {
                parsed.events += try parser.feed(bytes[start..<end])
            } catch {
                parsed.failed = true
                break
            }
            start = end
        }
        parsed.retry = parser.retry
        parsed.lastEventID = parser.lastEventID
        return parsed
    }

    private static func eventStream(_ bytes: [UInt8], cut: Int) {
        let pieces = parse(bytes, cut: cut)
        let whole = parse(bytes, cut: 0)
        let single = parse(bytes, cut: 1)
        fuzzCheck(pieces.agrees(with: whole), "an event stream parses differently cut in \(cut)s")
        fuzzCheck(single.agrees(with: whole), "an event stream parses differently fed byte by byte")
        for event in whole.events {
            fuzzCheck(event.data.utf8.count <= dataLimit, "an event carries more data than the limit")
        }
    }
}
