import Ensign
import EnsignSupport
import Synchronization

/// A connection to an app's ``ControlServer``: typed, blocking calls for each operation of
/// the control protocol, and ``watch(keys:)`` for a stream of changes.
///
/// ```swift
/// let client = try ControlClient.connect(to: .app("banking"))
/// print(client.server.environment)                               // development
/// let report = try client.toggle("beneficiaries.showPendingList")
/// print(report.value, report.source)                             // true override by cli at …
/// for key in try client.list() where key.isOverridden { print(key.key, key.value.jsonText) }
/// ```
///
/// Each call sends one request and waits for its reply (at most ``timeout``). Calls from
/// several threads are serialised. Errors are ``ControlClientError``; a request the server
/// refused is ``ControlClientError/refused(_:)`` with the server's ``ControlError``
/// (`NOT_FOUND`, `INVALID_VALUE`, `FORBIDDEN`, …).
public final class ControlClient: Sendable {
    /// What the server said about itself when the client connected.
    public let server: ServerHello
    /// The socket the client is connected to.
    public let socketPath: String
    /// How long each call waits for its reply.
    public let timeout: Duration
    private let channel: LockedState<LineChannel>
    private let nextID = Atomic<Int>(1)

    private init(server: ServerHello, socketPath: String, timeout: Duration, channel: LineChannel) {
        self.server = server
        self.socketPath = socketPath
        self.timeout = timeout
        self.channel = LockedState(channel)
    }

    /// Connects to the target app and exchanges `hello`.
    ///
    /// - Parameters:
    ///   - target: the app: ``ControlTarget/automatic`` is the only running app.
    ///   - directory: where to look for running apps; the user's runtime directory by default.
    ///   - timeout: how long each call waits for its reply.
    public static func connect(
        to target: ControlTarget = .automatic, in directory: String = ControlRuntimeDirectory.defaultPath,
        timeout: Duration = .seconds(10)
    ) throws(ControlClientError) -> ControlClient {
        let path = try target.socketPath(in: directory)
        let channel = try LineChannel.connect(to: path)
        let hello = ControlRequest(
            id: .number(0), operation: .hello(protocolVersion: ControlProtocol.version, client: "ensign-client"))
        let result = try exchange(hello, on: channel, timeout: timeout)
        let server: ServerHello = try decode(result)
        return ControlClient(server: server, socketPath: path, timeout: timeout, channel: channel)
    }

    /// Sends any operation and returns the raw `result` of its reply.
    public func send(_ operation: ControlOperation) throws(ControlClientError) -> JSONValue {
        let request = ControlRequest(id: .number(nextID.add(1, ordering: .relaxed).oldValue), operation: operation)
        return try channel.withLock { (channel) throws(ControlClientError) in
            try Self.exchange(request, on: channel, timeout: timeout)
        }
    }

    /// Every key with its value and source, sorted; only keys starting with `prefix` when given.
    public func list(prefix: String? = nil) throws(ControlClientError) -> [KeyReport] {
        let result = try send(.list(prefix: prefix))
        return try Self.decode(result["keys"] ?? .null)
    }

    /// One key's value, variant, reason, error, metadata and source.
    public func get(_ key: String) throws(ControlClientError) -> KeyReport {
        try Self.decode(try send(.get(key: key)))
    }

    /// Every layer's value for `key`, the winner marked, and its recent changes.
    public func explain(_ key: String) throws(ControlClientError) -> ExplanationReport {
        try Self.decode(try send(.explain(key: key)))
    }

    /// Overrides `key` with `value` (checked against its definition); `persist` also saves
    /// the override to the app's overrides file. Returns the key's new state.
    @discardableResult
    public func set(_ key: String, to value: JSONValue, persist: Bool = false) throws(ControlClientError) -> KeyReport {
        try Self.decode(try send(.set(key: key, value: value, persist: persist)))
    }

    /// Flips a bool flag; returns the key's new state.
    @discardableResult
    public func toggle(_ key: String) throws(ControlClientError) -> KeyReport {
        try Self.decode(try send(.toggle(key: key)))
    }

    /// Removes `key`'s override; returns the keys whose override was removed (empty when
    /// it had none).
    @discardableResult
    public func reset(_ key: String) throws(ControlClientError) -> [String] {
        try Self.decode(try send(.reset(key: key))["removed"] ?? .null)
    }

    /// Removes every override; returns the keys that had one.
    @discardableResult
    public func resetAll() throws(ControlClientError) -> [String] {
        try Self.decode(try send(.resetAll)["removed"] ?? .null)
    }

    /// The app's most recent transactions, oldest first (at most `limit`; the server's
    /// default is 50).
    public func log(limit: Int? = nil) throws(ControlClientError) -> [TransactionReport] {
        try Self.decode(try send(.log(limit: limit))["transactions"] ?? .null)
    }

    /// The app's health and the server's state.
    public func status() throws(ControlClientError) -> StatusReport {
        try Self.decode(try send(.status))
    }

    /// How often `keys` (every key evaluated when `nil`) were evaluated, by variant and reason;
    /// a server error `UNAVAILABLE` when the app does not count evaluations.
    public func stats(keys: [String]? = nil) throws(ControlClientError) -> StatsReport {
        try Self.decode(try send(.stats(keys: keys)))
    }

    /// Opens a second connection that streams changes to `keys` (every key when `nil`).
    ///
    /// ```swift
    /// let client = try ControlClient.connect(to: .automatic)
    /// let watch = try client.watch(keys: ["beneficiaries.pageSize"])
    /// for try await event in watch.events() { print(event) }
    /// ```
    public func watch(keys: [String]? = nil) throws(ControlClientError) -> ControlWatch {
        try ControlWatch.open(socketPath: socketPath, keys: keys, timeout: timeout)
    }

    /// Closes the connection. Later calls fail with ``ControlClientError/disconnected(_:)``.
    public func close() {
        channel.withLock { $0.close() }
    }

    /// Sends `request` and waits for its reply.
    static func exchange(_ request: ControlRequest, on channel: LineChannel, timeout: Duration)
        throws(ControlClientError) -> JSONValue
    {
        guard !channel.isClosed else { throw .disconnected("the client was closed") }
        do {
            try channel.send(request.line)
        } catch {
            // A server that refused the connection wrote why before closing; report that.
            if let line = try? channel.receiveLine(timeout: .milliseconds(200)),
                case .reply(let reply)? = try? ControlMessage.parse(line: line),
                case .failure(let refusal) = reply.outcome
            {
                throw .refused(refusal)
            }
            throw error
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let remaining = deadline - clock.now
            guard remaining > .zero, let line = try channel.receiveLine(timeout: remaining) else {
                if clock.now < deadline { continue }
                throw .timedOut(timeout)
            }
            let message: ControlMessage
            do {
                message = try ControlMessage.parse(line: line)
            } catch {
                throw .protocolViolation(error.message)
            }
            guard case .reply(let reply) = message else { continue }
            if reply.id == request.id || reply.id == .none {
                switch reply.outcome {
                case .success(let result):
                    guard reply.id == request.id else { continue }
                    return result
                case .failure(let error):
                    throw .refused(error)
                }
            }
        }
    }

    static func decode<Value: Decodable>(_ json: JSONValue) throws(ControlClientError) -> Value {
        do {
            return try JSONValueDecoder().decode(Value.self, from: json)
        } catch {
            throw .protocolViolation("cannot read \(Value.self): \(error)")
        }
    }
}
