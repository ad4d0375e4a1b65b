import Ensign
import EnsignHTTP
import EnsignJSON
import EnsignOFREP
import EnsignRemote

/// The `remote` target: what an OFREP server (or anything at its address) sends the remote
/// source, read without a socket by the readers the source uses.
///
/// Input format: one selector byte, one cut byte, then the bytes.
///
/// - selector `S`: a `text/event-stream` body, fed to ``ServerSentEventParser`` in pieces of
///   at most the cut byte's value (0: all at once), each event's data read as OFREP event
///   data; checked: the same events whatever the cut, no event's data longer than the limit;
/// - `B`: a bulk evaluation body, decoded as the source decodes it and delivered to a
///   context's fleet layer; checked: it encodes and decodes back to itself, every key reads;
/// - `C`: a cache file's bytes, read as the source reads one at start; checked: what it
///   accepts writes back to the same evaluation;
/// - any other byte picks one of the three by its value modulo 3.
///
/// The cut byte matters to `S` only.
enum RemoteTarget {
    /// Small limits, so that inputs reach them.
    private static let lineLimit = 512
    private static let dataLimit = 2048

    /// The modes, in selector order for bytes that name none.
    private static let modes: [UInt8] = Array("SBC".utf8)

    /// Runs one input.
    static func run(_ bytes: [UInt8]) {
        guard let input = ModalInput(bytes, modes: modes) else { return }
        switch input.mode {
        case UInt8(ascii: "S"): eventStream(input.payload, cut: input.cut)
        case UInt8(ascii: "B"): bulkBody(input.payload)
        default: cacheFile(input.payload)
        }
    }

    /// A context whose fleet layer each bulk input replaces whole.
    private static let context = try! AppContext(
        definitions: FuzzFixtures.definitions, FuzzFixtures.preferences, environment: "development")

    private static func bulkBody(_ bytes: [UInt8]) {
        guard let response = try? OFREPBulkEvaluationResponse(jsonBytes: bytes) else { return }
        fuzzCheck(
            (try? OFREPBulkEvaluationResponse(json: response.json)) == response,
            "a bulk evaluation does not read back as itself")
        let provided = RemoteValues.provided(from: response, origin: "ofrep http://fuzz:1")
        for (key, value) in provided.values {
            fuzzCheck(value.path == "ofrep:" + key, "a value's path is not its key's")
        }
        context.replaceFleetLayer(provided.values, source: "ofrep fuzz", revision: 1, problems: provided.diagnostics)
        for key in context.definitions.keys { _ = context.details(forKeyNamed: key) }
    }

    private static func cacheFile(_ bytes: [UInt8]) {
        guard let json = try? JSONValue(jsonBytes: bytes),
            let cached = try? CachedEvaluation.read(json, cacheKey: "fuzz")
        else { return }
        let again = try? CachedEvaluation.read(cached.json(cacheKey: "fuzz"), cacheKey: "fuzz")
        fuzzCheck(again == cached, "a cache entry does not read back as itself")
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
            if let data = try? OFREPEventData(jsonText: event.data) {
                fuzzCheck((try? OFREPEventData(json: data.json)) == data, "event data does not read back as itself")
            }
        }
    }
}
