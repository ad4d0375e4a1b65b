import Ensign
import EnsignHTTP
import EnsignSupport

/// etcd's v3 JSON gateway at one member: the requests EnsignFleet makes (`/v3/kv/range`,
/// `/v3/kv/put`, `/v3/kv/deleterange`, `/v3/kv/txn`, `/v3/kv/compaction`,
/// `/v3/auth/authenticate`) and the watch stream (`/v3/watch`), with base64 keys and values
/// and int64 fields as strings, as the gateway maps etcd's protobuf messages.
struct EtcdEndpoint: Sendable {
    let url: HTTPEndpoint
    let configuration: EtcdConfiguration
    /// The checked TLS files of the configuration, for https endpoints.
    let tls: HTTPTLSFiles?
    let cancellation: Cancellation?
    /// The authentication token, shared by the copies of a client, per endpoint.
    let tokens: TokenCache

    var name: String { url.description }

    /// Reads this endpoint's answers.
    private var replies: EtcdReplyReader { EtcdReplyReader(endpoint: name) }

    private var connection: HTTPConnection {
        HTTPConnection(endpoint: url, dialTimeout: configuration.dialTimeout, cancellation: cancellation, tls: tls)
    }

    // MARK: Requests

    /// Sends one request and returns the answer's JSON; authenticates first when configured,
    /// and once more if etcd says the token is no longer valid.
    func call(_ path: String, _ body: JSONValue) throws(EtcdError) -> JSONValue {
        do {
            return try callOnce(path, body)
        } catch .server(_, 16, let message) where configuration.credentials != nil && message.contains("token") {
            tokens.forget(name)
            return try callOnce(path, body)
        }
    }

    private func callOnce(_ path: String, _ body: JSONValue) throws(EtcdError) -> JSONValue {
        try post(path, body, headers: try headers())
    }

    /// POSTs `body` to `path` and returns the answer's JSON, or the error it holds.
    private func post(_ path: String, _ body: JSONValue, headers: [(name: String, value: String)]) throws(EtcdError)
        -> JSONValue
    {
        let request = HTTPRequest(path: path, headers: headers, body: Array(body.jsonText.utf8))
        let response: HTTPResponse
        do {
            response = try connection.send(request, timeout: configuration.requestTimeout)
        } catch {
            throw transportError(error)
        }
        guard response.status == 200 else { throw replies.failure(response.body, status: response.status) }
        return try replies.json(response.body)
    }

    /// The headers of every request: JSON, the token, and the `hasleader` metadata, so a
    /// member cut off from its leader refuses at once ("no leader", so the client tries
    /// another member) instead of holding a request until etcd's own timeout.
    private func headers() throws(EtcdError) -> [(name: String, value: String)] {
        var headers = [
            (name: "Content-Type", value: "application/json"), (name: "Grpc-Metadata-hasleader", value: "true"),
        ]
        if let token = try token() { headers.append((name: "Authorization", value: token)) }
        return headers
    }

    /// The token for this endpoint, authenticating when there is none yet.
    private func token() throws(EtcdError) -> String? {
        guard let credentials = configuration.credentials else { return nil }
        if let token = tokens.token(for: name) { return token }
        let body = JSONValue.object(["name": .string(credentials.username), "password": .string(credentials.password)])
        let json = try post("/v3/auth/authenticate", body, headers: [(name: "Content-Type", value: "application/json")])
        let token = try replies.token(json)
        tokens.store(token, for: name)
        return token
    }

    // MARK: Key-value operations

    /// Every key from `key` up to `rangeEnd` (exclusive; `nil`: `key` alone), at the latest revision.
    func range(_ key: String, rangeEnd: [UInt8]?) throws(EtcdError) -> EtcdRange {
        var body: [String: JSONValue] = ["key": .string(Base64.encode(key.utf8))]
        if let rangeEnd { body["range_end"] = .string(Base64.encode(rangeEnd)) }
        let json = try call("/v3/kv/range", .object(body))
        return try replies.range(json)
    }

    func put(_ key: String, value: [UInt8]) throws(EtcdError) -> Int64 {
        let json = try call(
            "/v3/kv/put", .object(["key": .string(Base64.encode(key.utf8)), "value": .string(Base64.encode(value))]))
        return try replies.revision(of: json)
    }

    func delete(_ key: String, rangeEnd: [UInt8]?) throws(EtcdError) -> (revision: Int64, deleted: Int64) {
        var body: [String: JSONValue] = ["key": .string(Base64.encode(key.utf8))]
        if let rangeEnd { body["range_end"] = .string(Base64.encode(rangeEnd)) }
        let json = try call("/v3/kv/deleterange", .object(body))
        return try replies.deletion(json)
    }

    /// Puts (`value`) or deletes (`nil`) `key` if its mod revision is still `modRevision`
    /// (0: the key must not exist), in one transaction; otherwise reads the key.
    func write(_ key: String, value: [UInt8]?, ifModRevision modRevision: Int64) throws(EtcdError) -> EtcdComparison {
        let encodedKey = JSONValue.string(Base64.encode(key.utf8))
        let operation: JSONValue =
            if let value {
                .object(["request_put": .object(["key": encodedKey, "value": .string(Base64.encode(value))])])
            } else {
                .object(["request_delete_range": .object(["key": encodedKey])])
            }
        let compare = JSONValue.object([
            "key": encodedKey, "target": "MOD", "result": "EQUAL", "mod_revision": .string(String(modRevision)),
        ])
        let json = try call(
            "/v3/kv/txn",
            .object([
                "compare": [compare], "success": [operation],
                "failure": [.object(["request_range": .object(["key": encodedKey])])],
            ]))
        return try replies.comparison(json)
    }

    func compact(revision: Int64) throws(EtcdError) {
        _ = try call("/v3/kv/compaction", .object(["revision": .string(String(revision)), "physical": true]))
    }

    // MARK: Watching

    /// Watches every key from `key` up to `rangeEnd` from `startRevision` (inclusive), calling
    /// `onResponses` with the messages of each read as they arrive (several at once when the
    /// watcher is behind, so it can catch up in one step), until `onResponses` returns false
    /// (the call returns) or throws, the watch is cancelled, or the stream ends (both errors).
    ///
    /// The request carries the `hasleader` metadata (see ``headers()``), so a member that loses
    /// its leader ends the stream instead of keeping a watch that would see no more changes.
    func watch(
        _ key: String, rangeEnd: [UInt8], startRevision: Int64,
        onResponses: ([EtcdWatchResponse]) throws(EtcdError) -> Bool
    ) throws(EtcdError) {
        let create = JSONValue.object([
            "key": .string(Base64.encode(key.utf8)), "range_end": .string(Base64.encode(rangeEnd)),
            "start_revision": .string(String(startRevision)), "progress_notify": true,
        ])
        let request = HTTPRequest(
            path: "/v3/watch", headers: try headers(),
            body: Array(JSONValue.object(["create_request": create]).jsonText.utf8))
        // The check: a serializable count of the watched key, answered by the member itself
        // without the leader, so it tells whether this member is alive.
        let check = try configuration.keepAliveInterval.map { interval throws(EtcdError) in
            HTTPConnection.LivenessCheck(
                interval: interval, timeout: configuration.keepAliveTimeout,
                request: HTTPRequest(
                    path: "/v3/kv/range", headers: try headers(),
                    body: Array(
                        JSONValue.object([
                            "key": .string(Base64.encode(key.utf8)), "serializable": true, "count_only": true,
                        ]).jsonText.utf8)))
        }
        var splitter = JSONStreamSplitter()
        var status = 200
        var errorBody: [UInt8] = []
        var stoppedByCaller = false
        do {
            try connection.stream(
                request, headTimeout: configuration.requestTimeout, idleTimeout: nil, livenessCheck: check,
                onHead: { head in status = head.status },
                onBody: { (bytes) throws(EtcdError) -> Bool in
                    guard status == 200 else {
                        errorBody += bytes
                        return true
                    }
                    let messages: [[UInt8]]
                    do { messages = try splitter.feed(bytes) } catch {
                        throw EtcdError.malformedResponse(endpoint: name, detail: "\(error)")
                    }
                    guard !messages.isEmpty else { return true }
                    var responses: [EtcdWatchResponse] = []
                    responses.reserveCapacity(messages.count)
                    for message in messages { responses.append(try replies.watchResponse(replies.json(message))) }
                    guard try onResponses(responses) else {
                        stoppedByCaller = true
                        return false
                    }
                    return true
                })
        } catch let error as EtcdError {
            throw error
        } catch let error as HTTPError {
            throw transportError(error)
        } catch {
            throw .malformedResponse(endpoint: name, detail: "\(error)")
        }
        if status != 200 { throw replies.failure(errorBody, status: status) }
        if stoppedByCaller { return }
        throw .unreachable(["\(name): the watch stream ended"])
    }

    private func transportError(_ error: HTTPError) -> EtcdError {
        error == .cancelled ? .cancelled : .unreachable(["\(name): \(error)"])
    }
}

/// Authentication tokens by endpoint, shared by every copy of a client.
final class TokenCache: Sendable {
    private let tokens = LockedState<[String: String]>([:])

    func token(for endpoint: String) -> String? { tokens.withLock { $0[endpoint] } }
    func store(_ token: String, for endpoint: String) { tokens.withLock { $0[endpoint] = token } }
    func forget(_ endpoint: String) { tokens.withLock { $0[endpoint] = nil } }
}

/// Key ranges over a prefix.
enum EtcdKeyRange {
    /// The `range_end` that makes a range cover every key starting with `prefix`: the prefix
    /// with its last byte below 0xFF incremented (and the bytes after it dropped), or `\0`
    /// (every key) when there is none.
    static func end(ofPrefix prefix: String) -> [UInt8] {
        var bytes = Array(prefix.utf8)
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return [0]
    }
}
