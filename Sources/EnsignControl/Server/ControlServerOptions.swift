#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``ControlServer`` runs: the app's name, whether production accepts writes, where
/// the socket goes, and the limits that keep a misbehaving client from hurting the app.
///
/// ```swift
/// var options = ControlServerOptions(appName: "banking")
/// options.idleTimeout = .seconds(60)
/// let server = try ControlServer.start(context: context, options: options)
/// ```
public struct ControlServerOptions: Sendable {
    /// The app's name: the socket is `<appName>.<pid>.sock`, and `ensign --app NAME` finds it.
    /// Letters, digits, `-`, `_` and `.`; at most 64 bytes.
    public var appName: String
    /// Whether `set`, `toggle` and `reset` are accepted when the context's environment is
    /// `production` (in any case). Default: `false` (they get a `FORBIDDEN` error).
    public var allowsWritesInProduction: Bool
    /// The directory for the socket; `nil` uses ``ControlRuntimeDirectory/defaultPath``.
    public var runtimeDirectory: String?
    /// An exact socket path, instead of `<runtimeDirectory>/<appName>.<pid>.sock`. Its
    /// directory is not created; it must be a real directory of this user's (or root's) that
    /// nobody else can write to, or the server does not start.
    public var socketPath: String?
    /// How many connections are served at once. When all are in use, a newcomer takes the
    /// place of the connection idle the longest (idle for half a second at least; it is told
    /// why); when none is idle, it gets a `BUSY` error and is closed. Watching connections may
    /// take three quarters of the slots; the rest stay for requests. Default: 16.
    public var maximumConnections: Int
    /// A connection that sends nothing for this long is closed (watching connections are
    /// exempt). Default: 5 minutes.
    public var idleTimeout: Duration
    /// How many change events wait for a slow watching client before new ones are dropped
    /// (the client is then told how many with a `dropped` event). Default: 1,024.
    public var watchQueueCapacity: Int
    /// Where the server reports refused peers and other notable events; called on the
    /// server's thread. Default: standard error.
    public var log: @Sendable (String) -> Void
    /// More lines for `ensign status`, asked for on each `status` request: what the app serves
    /// besides its context (`ensign serve` gives its limits and open connections). Default: none.
    public var statusDetails: (@Sendable () -> [StatusDetail])?

    /// Creates options with the default limits.
    public init(
        appName: String, allowsWritesInProduction: Bool = false, runtimeDirectory: String? = nil,
        socketPath: String? = nil
    ) {
        self.appName = appName
        self.allowsWritesInProduction = allowsWritesInProduction
        self.runtimeDirectory = runtimeDirectory
        self.socketPath = socketPath
        self.maximumConnections = 16
        self.idleTimeout = .seconds(300)
        self.watchQueueCapacity = 1024
        self.log = ControlServerOptions.logToStandardError
        self.statusDetails = nil
    }

    /// Writes `ensign control: <message>` to standard error.
    public static let logToStandardError: @Sendable (String) -> Void = { message in
        let bytes = Array("ensign control: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
