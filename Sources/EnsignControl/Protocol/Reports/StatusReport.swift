/// What a server says about itself in the `hello` exchange.
///
/// `{"app": "demo", "pid": 4242, "environment": "development", "ensignVersion": "0.1.0", "protocol": 1}`
public struct ServerHello: Codable, Sendable, Hashable {
    /// The app's name, as given in ``ControlServerOptions/appName``.
    public var app: String
    /// The app's process identifier.
    public var pid: Int32
    /// The environment the app's context resolves for.
    public var environment: String
    /// The Ensign library version the app was built with.
    public var ensignVersion: String
    /// The protocol version the server speaks.
    public var protocolVersion: Int

    enum CodingKeys: String, CodingKey {
        case app, pid, environment, ensignVersion
        case protocolVersion = "protocol"
    }

    /// Creates a hello.
    public init(app: String, pid: Int32, environment: String, ensignVersion: String, protocolVersion: Int) {
        self.app = app
        self.pid = pid
        self.environment = environment
        self.ensignVersion = ensignVersion
        self.protocolVersion = protocolVersion
    }
}

/// The app's health and the server's state: the result of `status`.
public struct StatusReport: Codable, Sendable, Hashable {
    /// Who the server is.
    public var server: ServerHello
    /// The context's label in the change log.
    public var label: String
    /// Whether the last reload failed (the last good values are still in force).
    public var isDegraded: Bool
    /// Since when, ISO 8601, when degraded.
    public var degradedSince: String?
    /// The problems of the failed reload (or of loading), one per line.
    public var diagnostics: [String]
    /// Flags that read `PARSE_ERROR` because their file configures them wrongly, one per line
    /// (``ContextStatus/flagProblems``); `nil` from a server that predates the field.
    public var flagProblems: [String]?
    /// How many keys the app defines.
    public var keyCount: Int
    /// How many runtime overrides are in force.
    public var overrideCount: Int
    /// Whether this server accepts writes (`set`, `toggle`, `reset`).
    public var acceptsWrites: Bool
    /// Open control connections, this one included.
    public var connections: Int
    /// Connections that are watching.
    public var watchers: Int
    /// When the server started, ISO 8601 in UTC.
    public var startedAt: String
    /// What the app adds (``ControlServerOptions/statusDetails``); `nil` from an app that adds
    /// nothing, or a server that predates the field.
    public var details: [StatusDetail]?

    enum CodingKeys: String, CodingKey {
        case server, label, diagnostics, flagProblems, keyCount, overrideCount, acceptsWrites, connections, watchers,
            startedAt, details
        case degradedSince
        case isDegraded = "degraded"
    }

    /// Creates a status report.
    public init(
        server: ServerHello, label: String, isDegraded: Bool, degradedSince: String?, diagnostics: [String],
        flagProblems: [String]? = nil, keyCount: Int, overrideCount: Int, acceptsWrites: Bool, connections: Int,
        watchers: Int, startedAt: String, details: [StatusDetail]? = nil
    ) {
        self.server = server
        self.label = label
        self.isDegraded = isDegraded
        self.degradedSince = degradedSince
        self.diagnostics = diagnostics
        self.flagProblems = flagProblems
        self.keyCount = keyCount
        self.overrideCount = overrideCount
        self.acceptsWrites = acceptsWrites
        self.connections = connections
        self.watchers = watchers
        self.startedAt = startedAt
        self.details = details
    }
}

/// One line an app adds to its status: `serve limits` → `18510 connections (13882 event streams), …`.
public struct StatusDetail: Codable, Sendable, Hashable {
    /// What the line is about, lower case: `serve limits`.
    public var name: String
    /// Its value.
    public var value: String

    /// Creates a line.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
