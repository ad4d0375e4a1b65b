import Ensign

/// A request's identifier, echoed in its reply so a client can match replies to requests.
///
/// The protocol allows a number, a string, or no identifier at all (the reply then carries
/// `"id": null`).
public enum ControlRequestID: Sendable, Hashable, CustomStringConvertible {
    /// A numeric identifier: `"id": 7`.
    case number(Int)
    /// A string identifier: `"id": "a7"`.
    case string(String)
    /// The request had no `id` (or it could not be read).
    case none

    /// The identifier as it appears on the wire.
    public var json: JSONValue {
        switch self {
        case .number(let number): return .int(number)
        case .string(let string): return .string(string)
        case .none: return .null
        }
    }

    /// Reads an identifier; `nil` when `json` is neither a number, a string nor null.
    public init?(json: JSONValue?) {
        switch json {
        case nil, .null?: self = .none
        case .int(let number)?: self = .number(number)
        case .string(let string)? where string.utf8.count <= 256: self = .string(string)
        default: return nil
        }
    }

    /// `7`, `"a7"` or `null`.
    public var description: String { json.jsonText }
}

/// What a request asks the server to do.
public enum ControlOperation: Sendable, Hashable {
    /// Exchanges versions: the client's protocol version and name; the reply is a ``ServerHello``.
    case hello(protocolVersion: Int, client: String?)
    /// Every key with its value and source, optionally only keys starting with `prefix`; the
    /// reply is `{"keys": [KeyReport]}`.
    case list(prefix: String?)
    /// One key's details; the reply is a ``KeyReport``.
    case get(key: String)
    /// Every layer's value for a key and its recent changes; the reply is an ``ExplanationReport``.
    case explain(key: String)
    /// Overrides a key's value (validated as `AppContext.setOverride` validates it), optionally
    /// saved to the overrides file; the reply is the key's new ``KeyReport``.
    case set(key: String, value: JSONValue, persist: Bool)
    /// Flips a bool flag; the reply is the key's new ``KeyReport``.
    case toggle(key: String)
    /// Removes one key's override; the reply is `{"removed": [key]}` (empty when it had none).
    case reset(key: String)
    /// Removes every override; the reply is `{"removed": [keys]}`.
    case resetAll
    /// Streams change events for the keys (every key when `nil`) until `stop` or the client leaves.
    case watch(keys: [String]?)
    /// Ends this connection's watch.
    case stop
    /// The most recent transactions, oldest first, at most `limit`; the reply is
    /// `{"transactions": [TransactionReport]}`.
    case log(limit: Int?)
    /// The app's health and the server's state; the reply is a ``StatusReport``.
    case status
    /// How often the keys (every key evaluated when `nil`) were evaluated, by variant and
    /// reason, since the app turned counting on; the reply is a ``StatsReport``, or
    /// `UNAVAILABLE` when counting is off.
    case stats(keys: [String]?)

    /// The operation's name on the wire (`op`).
    public var name: String {
        switch self {
        case .hello: return "hello"
        case .list: return "list"
        case .get: return "get"
        case .explain: return "explain"
        case .set: return "set"
        case .toggle: return "toggle"
        case .reset, .resetAll: return "reset"
        case .watch: return "watch"
        case .stop: return "stop"
        case .log: return "log"
        case .status: return "status"
        case .stats: return "stats"
        }
    }

    /// Every operation name the protocol defines.
    public static let names = [
        "hello", "list", "get", "explain", "set", "toggle", "reset", "watch", "stop", "log", "status", "stats",
    ]

    /// Whether the operation changes values (and so is refused in production unless allowed).
    public var isWrite: Bool {
        switch self {
        case .set, .toggle, .reset, .resetAll: return true
        default: return false
        }
    }
}

/// One request line: an identifier and an operation.
///
/// ```swift
/// let request = try ControlRequest.parse(line: #"{"id": 1, "op": "toggle", "key": "beneficiaries.showPendingList"}"#)
/// // request.operation == .toggle(key: "beneficiaries.showPendingList")
/// ```
public struct ControlRequest: Sendable, Hashable {
    /// Echoed in the reply.
    public var id: ControlRequestID
    /// What to do.
    public var operation: ControlOperation

    /// Creates a request.
    public init(id: ControlRequestID, operation: ControlOperation) {
        self.id = id
        self.operation = operation
    }

    /// The request as a JSON object, as ``parse(line:)-(String)`` reads it back.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["op": .string(operation.name)]
        if id != .none { object["id"] = id.json }
        switch operation {
        case .hello(let version, let client):
            object["protocol"] = .int(version)
            if let client { object["client"] = .string(client) }
        case .list(let prefix):
            if let prefix { object["prefix"] = .string(prefix) }
        case .get(let key), .explain(let key), .toggle(let key), .reset(let key):
            object["key"] = .string(key)
        case .set(let key, let value, let persist):
            object["key"] = .string(key)
            object["value"] = value
            if persist { object["persist"] = true }
        case .resetAll:
            object["all"] = true
        case .watch(let keys), .stats(let keys):
            if let keys { object["keys"] = .array(keys.map(JSONValue.string)) }
        case .log(let limit):
            if let limit { object["limit"] = .int(limit) }
        case .stop, .status:
            break
        }
        return .object(object)
    }

    /// The request as one line of JSON, without the newline.
    public var line: String { json.jsonText }
}

/// Why a request line was refused before it reached the app, with the identifier when it
/// could be read (so the error reply still matches the request).
public struct ControlRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request's identifier, or ``ControlRequestID/none`` when it could not be read.
    public var id: ControlRequestID
    /// What was wrong.
    public var error: ControlError

    /// Creates an error.
    public init(id: ControlRequestID, error: ControlError) {
        self.id = id
        self.error = error
    }

    /// The error's code and message.
    public var description: String { error.description }
}
