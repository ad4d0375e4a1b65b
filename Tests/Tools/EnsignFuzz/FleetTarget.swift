import Ensign
import EnsignFleet
import EnsignHTTP

/// The `fleet` target: what an etcd member (or anything listening at its address) sends the
/// fleet client, read without a socket by the same readers the client uses. libcurl reads the
/// HTTP framing (and has its own fuzzing); this target starts where Ensign's reading starts,
/// at the body's bytes.
///
/// Input format: one selector byte, one cut byte, then the body's bytes as they arrive.
///
/// - selector `R`: the body of a unary reply (`/v3/kv/range`, `put`, `txn`, `deleterange`,
///   `auth/authenticate`), decoded by every ``EtcdReplyReader`` method and each key-value's
///   value parsed as a fleet value;
/// - `W`: the body of `/v3/watch`, split into JSON messages by ``JSONStreamSplitter``, each
///   decoded as a watch message, the values of their events applied to a context's fleet layer;
/// - `B`: base64 text, for ``Base64``;
/// - any other byte picks one of the three by its value modulo 3.
///
/// The cut byte is the most bytes libcurl hands over at once (0: everything at once), so the
/// splitter sees streams cut anywhere, as the network cuts them, and must split them the same.
enum FleetTarget {
    /// The modes, in selector order for bytes that name none.
    private static let modes: [UInt8] = Array("RWB".utf8)

    /// Runs one input.
    static func run(_ bytes: [UInt8]) {
        guard let input = ModalInput(bytes, modes: modes) else { return }
        switch input.mode {
        case UInt8(ascii: "R"): unaryResponse(input.payload, cut: input.cut)
        case UInt8(ascii: "W"): watchResponse(input.payload, cut: input.cut)
        default: base64(input.payload)
        }
    }

    // MARK: Unary replies

    private static func unaryResponse(_ body: [UInt8], cut: Int) {
        // Every reply reader gets the body, as a confused or hostile server could send any of
        // them to any request, with a success or an error status.
        let reader = EtcdReplyReader(endpoint: "http://fuzz:2379")
        guard let json = try? reader.json(body) else { return }
        _ = reader.serverError(json, status: 200 + cut)
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
        let step = cut == 0 ? max(1, bytes.count) : cut
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + step)
            do {
                streamed.messages += try splitter.feed(Array(bytes[index..<end]))
            } catch {
                streamed.failed = true
                break
            }
            index = end
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

    // MARK: Base64

    private static func base64(_ bytes: [UInt8]) {
        fuzzCheck(Base64.decode(Base64.encode(bytes)) == bytes, "bytes do not round-trip through base64")
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = Base64.decode(text) {
            fuzzCheck(Base64.decode(Base64.encode(decoded)) == decoded, "decoded base64 does not round-trip")
        }
    }
}
