import Ensign
import EnsignFleet
import EnsignHTTP

/// The `fleet` target: what an etcd member (or anything listening at its address) sends the
/// fleet client, read without a socket by the same readers the client uses.
///
/// Input format: one selector byte, one cut byte, then the bytes as they arrive on the socket.
///
/// - selector `R`: the HTTP response to a unary request (`/v3/kv/range`, `put`, `txn`,
///   `deleterange`, `auth/authenticate`), read as `HTTPConnection.send` reads it, its body then
///   decoded by every ``EtcdReplyReader`` method and each key-value's value parsed as a fleet value;
/// - `W`: the HTTP response to `/v3/watch`, read as `HTTPConnection.stream` reads it, the body
///   split into JSON messages by ``JSONStreamSplitter``, each decoded as a watch message, the
///   values of their events applied to a context's fleet layer;
/// - `C`: a chunked body alone, for ``ChunkedDecoder``;
/// - `B`: base64 text, for ``Base64``;
/// - any other byte picks one of the four by its value modulo 4.
///
/// The cut byte is the most bytes one `recv` returns (0: everything at once), so the readers
/// see responses cut anywhere, as the network cuts them. Each mode also checks that another
/// cut gives the same result: the framing must not depend on where reads end.
enum FleetTarget {
    /// The modes, in selector order for bytes that name none.
    private static let modes: [UInt8] = Array("RWCB".utf8)

    /// Runs one input.
    static func run(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let selector = modes.contains(bytes[0]) ? bytes[0] : modes[Int(bytes[0]) % modes.count]
        let cut = Int(bytes[1])
        let payload = Array(bytes[2...])
        switch selector {
        case UInt8(ascii: "R"): unaryResponse(payload, cut: cut)
        case UInt8(ascii: "W"): watchResponse(payload, cut: cut)
        case UInt8(ascii: "C"): chunkedBody(payload, cut: cut)
        default: base64(payload)
        }
    }

    // MARK: Unary replies

    /// A complete response, as `send` collects it (body size bounded as there).
    private struct Collected: Equatable {
        var status: Int
        var body: [UInt8]
    }

    private static func collect(_ bytes: [UInt8], cut: Int, method: String) -> Collected? {
        var body: [UInt8] = []
        let head = try? HTTPResponseReader.read(
            from: MemoryByteSource(bytes, cut: cut), method: method, headDeadline: .now + .seconds(1),
            bodyWait: .idle(nil), onHead: { _ in true },
            onBody: { piece in
                body += piece
                return body.count <= 64 << 20
            })
        return head.map { Collected(status: $0.status, body: body) }
    }

    private static func unaryResponse(_ bytes: [UInt8], cut: Int) {
        let collected = collect(bytes, cut: cut, method: "POST")
        fuzzCheck(collected == collect(bytes, cut: 0, method: "POST"), "a response reads differently cut in \(cut)s")
        // Whatever the head says, every reply reader gets the body, as a confused or hostile
        // server could send any of them to any request.
        let reader = EtcdReplyReader(endpoint: "http://fuzz:2379")
        let body = collected?.body ?? bytes
        guard let json = try? reader.json(body) else { return }
        _ = reader.serverError(json, status: collected?.status ?? 200)
        _ = try? reader.revision(of: json)
        _ = try? reader.deletion(json)
        _ = try? reader.token(json)
        if case .failed(let current?, _)? = try? reader.comparison(json) { check(current) }
        if let range = try? reader.range(json) {
            for keyValue in range.keyValues { check(keyValue) }
        }
    }

    /// A decoded key-value: its key goes back to the same base64, and its value reads as a fleet value.
    private static func check(_ keyValue: EtcdKeyValue) {
        fuzzCheck(Base64.decode(Base64.encode(keyValue.value)) == keyValue.value, "a value does not round-trip")
        _ = FleetValueText.parse(keyValue.value, path: "etcd:" + keyValue.key)
    }

    // MARK: Watch streams

    /// What a watch stream delivered: its messages, then whether it ended in an error.
    private struct Streamed {
        var messages: [[UInt8]] = []
        var failed = false

        /// Whether `other`, the same stream cut elsewhere, delivered the same. A stream that
        /// fails may fail after more or fewer messages (bytes decoded in the read that fails
        /// are not handed out, and the fleet source re-reads from the last revision it
        /// applied), but never after different ones.
        func agrees(with other: Streamed) -> Bool {
            guard failed == other.failed else { return false }
            guard failed else { return messages == other.messages }
            let common = min(messages.count, other.messages.count)
            return messages.prefix(common) == other.messages.prefix(common)
        }
    }

    private static func stream(_ bytes: [UInt8], cut: Int) -> Streamed {
        var streamed = Streamed()
        var splitter = JSONStreamSplitter()
        do {
            _ = try HTTPResponseReader.read(
                from: MemoryByteSource(bytes, cut: cut), method: "POST", headDeadline: .now + .seconds(1),
                bodyWait: .idle(nil), onHead: { $0.status == 200 },
                onBody: { piece in
                    do {
                        streamed.messages += try splitter.feed(piece)
                        return true
                    } catch {
                        streamed.failed = true
                        return false
                    }
                })
        } catch {
            streamed.failed = true
        }
        return streamed
    }

    private static func watchResponse(_ bytes: [UInt8], cut: Int) {
        let streamed = stream(bytes, cut: cut)
        let whole = stream(bytes, cut: 0)
        fuzzCheck(
            streamed.agrees(with: whole),
            "a watch stream splits differently cut in \(cut)s: \(streamed.messages.count) messages"
                + "\(streamed.failed ? ", failed" : ""), not \(whole.messages.count)\(whole.failed ? ", failed" : "")")
        let reader = EtcdReplyReader(endpoint: "http://fuzz:2379")
        var values: [String: ProvidedValue] = [:]
        for message in streamed.messages {
            guard let json = try? reader.json(message), let response = try? reader.watchResponse(json) else { break }
            for event in response.events {
                check(event.keyValue)
                guard event.keyValue.key.hasPrefix(keyPrefix) else { continue }
                let key = String(event.keyValue.key.dropFirst(keyPrefix.count))
                if event.kind == .delete {
                    values[key] = nil
                } else if case .value(let value) = FleetValueText.parse(event.keyValue.value, path: "etcd:" + key) {
                    values[key] = ProvidedValue(value, origin: "fuzz", path: "etcd:" + key)
                }
            }
        }
        // The context checks each value against its definition; every key must still read.
        let context = fleetContext
        context.replaceFleetLayer(values, source: "etcd fuzz", revision: 1)
        for key in context.definitions.keys { _ = context.details(forKeyNamed: key) }
    }

    /// The prefix of the watched keys: `/app/flags/beneficiaries.pageSize` is the fleet value of
    /// `beneficiaries.pageSize`.
    private static let keyPrefix = "/app/flags/"

    /// A context whose fleet layer each watch input replaces whole, so no input's values
    /// outlive it; the change log it grows is bounded.
    private static let fleetContext = try! AppContext(
        definitions: FuzzFixtures.definitions, FuzzFixtures.preferences, environment: "development")

    // MARK: Chunked bodies and base64

    /// Decodes `bytes` fed in pieces of `cut` (everything at once for 0): the body, how many
    /// bytes it used, or nil on an error.
    private static func decodeChunked(_ bytes: [UInt8], cut: Int) -> (body: [UInt8], used: Int, complete: Bool)? {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        var index = 0
        let step = cut == 0 ? max(1, bytes.count) : cut
        while index < bytes.count, !decoder.isComplete {
            let end = min(bytes.count, index + step)
            guard let used = try? decoder.feed(bytes[index..<end], into: &body) else { return nil }
            index += used
        }
        return (body, index, decoder.isComplete)
    }

    private static func chunkedBody(_ bytes: [UInt8], cut: Int) {
        let whole = decodeChunked(bytes, cut: 0)
        let pieces = decodeChunked(bytes, cut: cut)
        fuzzCheck(whole?.body == pieces?.body, "a chunked body decodes differently fed in \(cut)s")
        fuzzCheck(whole?.used == pieces?.used, "a chunked body ends at another byte fed in \(cut)s")
        if let whole { fuzzCheck(whole.body.count <= whole.used, "a chunked body is longer than its encoding") }
    }

    private static func base64(_ bytes: [UInt8]) {
        fuzzCheck(Base64.decode(Base64.encode(bytes)) == bytes, "bytes do not round-trip through base64")
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = Base64.decode(text) {
            fuzzCheck(Base64.decode(Base64.encode(decoded)) == decoded, "decoded base64 does not round-trip")
        }
    }
}

/// Hands out fixed bytes as a socket would: at most `cut` bytes a read (0: all at once), then
/// the end of the connection.
final class MemoryByteSource: HTTPByteSource {
    private let bytes: [UInt8]
    private let cut: Int
    private var offset = 0

    init(_ bytes: [UInt8], cut: Int) {
        self.bytes = bytes
        self.cut = cut
    }

    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant?, while activity: String)
        throws(HTTPError) -> Int
    {
        let count = min(bytes.count - offset, cut == 0 ? bytes.count : cut)
        buffer += bytes[offset..<offset + count]
        offset += count
        return count
    }
}
