import Ensign
import EnsignJSON
import EnsignSupport

extension ControlRequest {
    /// Reads one request line (without its newline): a pure function of the bytes, so it can
    /// be fuzzed on its own.
    ///
    /// Every problem is a ``ControlRequestError`` naming the request's `id` when it could be
    /// read: `TOO_LARGE` past ``ControlProtocol/maximumLineLength`` bytes, `BAD_REQUEST` for
    /// malformed JSON (deeper than ``ControlProtocol/maximumDepth``, invalid UTF-8, not an
    /// object) and for missing, mistyped or unknown members, `UNKNOWN_OP` for an operation
    /// the protocol does not define.
    public static func parse(line: some Collection<UInt8>) throws(ControlRequestError) -> ControlRequest {
        guard line.count <= ControlProtocol.maximumLineLength else {
            throw ControlRequestError(
                id: .none,
                error: ControlError(
                    .tooLarge,
                    "the request is \(line.count) bytes; the limit is \(ControlProtocol.maximumLineLength) bytes per line"
                ))
        }
        let json: JSONValue
        do {
            json = try JSONValue(jsonBytes: Array(line), maximumDepth: ControlProtocol.maximumDepth)
        } catch {
            throw ControlRequestError(id: .none, error: ControlError(.badRequest, "malformed JSON: \(error)"))
        }
        guard case .object(let members) = json else {
            throw ControlRequestError(
                id: .none, error: ControlError(.badRequest, "a request must be a JSON object with \"op\""))
        }
        guard let id = ControlRequestID(json: members["id"]) else {
            throw ControlRequestError(
                id: .none, error: ControlError(.badRequest, "\"id\" must be a number or a string of at most 256 bytes"))
        }
        do {
            var reader = MemberReader(members: members)
            let operation = try reader.readOperation()
            try reader.rejectUnknownMembers()
            return ControlRequest(id: id, operation: operation)
        } catch {
            throw ControlRequestError(id: id, error: error)
        }
    }

    /// Reads one request line given as text; see ``parse(line:)-(Collection<UInt8>)``.
    public static func parse(line: String) throws(ControlRequestError) -> ControlRequest {
        try parse(line: Array(line.utf8))
    }
}

/// Reads a request object's members with type checks, remembering which were read so that
/// unknown (often misspelt) members are reported rather than silently ignored.
private struct MemberReader {
    let members: [String: JSONValue]
    var known: Set<String> = ["id", "op"]

    init(members: [String: JSONValue]) {
        self.members = members
    }

    mutating func readOperation() throws(ControlError) -> ControlOperation {
        guard let op = members["op"] else { throw ControlError(.badRequest, "the request has no \"op\"") }
        guard let name = op.stringValue else { throw ControlError(.badRequest, "\"op\" must be a string") }
        switch name {
        case "hello":
            return .hello(protocolVersion: try integer("protocol") ?? 1, client: try string("client", limit: 256))
        case "list": return .list(prefix: try string("prefix", limit: 1024))
        case "get": return .get(key: try requiredKey())
        case "explain": return .explain(key: try requiredKey())
        case "set":
            let key = try requiredKey()
            known.insert("value")
            guard let value = members["value"] else { throw ControlError(.badRequest, "\"set\" needs a \"value\"") }
            return .set(key: key, value: value, persist: try bool("persist") ?? false)
        case "toggle": return .toggle(key: try requiredKey())
        case "reset":
            let key = try string("key", limit: 1024)
            let all = try bool("all") ?? false
            switch (key, all) {
            case (let key?, false): return .reset(key: key)
            case (nil, true): return .resetAll
            default: throw ControlError(.badRequest, "\"reset\" needs either \"key\" or \"all\": true")
            }
        case "watch": return .watch(keys: try stringArray("keys"))
        case "stop": return .stop
        case "log":
            let limit = try integer("limit")
            if let limit, limit < 1 { throw ControlError(.badRequest, "\"limit\" must be at least 1") }
            return .log(limit: limit)
        case "status": return .status
        case "stats": return .stats(keys: try stringArray("keys"))
        default:
            throw ControlError(
                .unknownOperation,
                "unknown op '\(name)'\(Suggestions.didYouMean(name, among: ControlOperation.names)); the operations"
                    + " are \(ControlOperation.names.joined(separator: ", "))")
        }
    }

    func rejectUnknownMembers() throws(ControlError) {
        guard let unknown = members.keys.sorted().first(where: { !known.contains($0) }) else { return }
        throw ControlError(
            .badRequest, "unknown member \"\(unknown)\"\(Suggestions.didYouMean(unknown, among: known.sorted()))")
    }

    mutating func requiredKey() throws(ControlError) -> String {
        guard let key = try string("key", limit: 1024) else { throw ControlError(.badRequest, "\"key\" is missing") }
        guard !key.isEmpty else { throw ControlError(.badRequest, "\"key\" is empty") }
        return key
    }

    mutating func string(_ name: String, limit: Int) throws(ControlError) -> String? {
        known.insert(name)
        guard let value = members[name] else { return nil }
        guard let string = value.stringValue else {
            throw ControlError(.badRequest, "\"\(name)\" must be a string, not \(value.jsonText.prefix(40))")
        }
        guard string.utf8.count <= limit else {
            throw ControlError(.badRequest, "\"\(name)\" is longer than \(limit) bytes")
        }
        return string
    }

    mutating func bool(_ name: String) throws(ControlError) -> Bool? {
        known.insert(name)
        guard let value = members[name] else { return nil }
        guard let bool = value.boolValue else {
            throw ControlError(.badRequest, "\"\(name)\" must be true or false, not \(value.jsonText.prefix(40))")
        }
        return bool
    }

    mutating func integer(_ name: String) throws(ControlError) -> Int? {
        known.insert(name)
        guard let value = members[name] else { return nil }
        guard case .int(let integer) = value else {
            throw ControlError(.badRequest, "\"\(name)\" must be an integer, not \(value.jsonText.prefix(40))")
        }
        return integer
    }

    mutating func stringArray(_ name: String) throws(ControlError) -> [String]? {
        known.insert(name)
        guard let value = members[name] else { return nil }
        guard let elements = value.arrayValue, elements.count <= 10_000 else {
            throw ControlError(.badRequest, "\"\(name)\" must be an array of at most 10000 strings")
        }
        var strings: [String] = []
        for element in elements {
            guard let string = element.stringValue, !string.isEmpty, string.utf8.count <= 1024 else {
                throw ControlError(
                    .badRequest, "\"\(name)\" must hold non-empty strings, not \(element.jsonText.prefix(40))")
            }
            strings.append(string)
        }
        return strings
    }
}
