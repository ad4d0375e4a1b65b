#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `ensign serve` listens and the bounds it keeps, whatever clients do.
///
/// The defaults hold a fleet: the server raises the process's descriptor limit to its hard
/// limit and sizes itself from it (on a machine allowing 20,000 descriptors: 18,510 connections,
/// 13,882 of them event streams), cuts idle and slow clients before they crowd others out, and
/// keeps a quarter of its connections for evaluations whatever the streams do.
///
/// ```swift
/// var options = OFREPServerOptions()
/// options.listenAddress = try ListenAddress(parsing: "0.0.0.0:8016")
/// options.managementAddress = try ListenAddress(parsing: "127.0.0.1:8014")
/// ```
public struct OFREPServerOptions: Sendable {
    /// Where to listen. Default: `127.0.0.1:8016`, loopback only.
    public var listenAddress: ListenAddress
    /// Where `/healthz`, `/readyz` and `/metrics` are served; `nil` (the default) serves them
    /// on ``listenAddress`` beside OFREP. A port of their own keeps them off the public one
    /// and reachable while the public one is saturated (flagd does the same, on 8014).
    public var managementAddress: ListenAddress?
    /// The certificate and key to speak TLS with (HTTPS); `nil` (the default) speaks plain HTTP.
    /// The management port always speaks plain HTTP.
    public var tls: ServerTLS?
    /// The threads that serve connections, each multiplexing its share with epoll. Default:
    /// one per processor, at least 2 and at most 8.
    public var workerThreads: Int
    /// Raise the process's soft descriptor limit to its hard limit when the server starts, as
    /// Go's runtime does for every program. Default: `true`.
    public var raisesDescriptorLimit: Bool
    /// The most connections open at once, event streams included; `nil` (the default) takes
    /// fifteen sixteenths of the descriptors left after 256 for the rest of the process, at most
    /// 65,536. Beyond it, a newcomer takes the place of the oldest idle connection, or is
    /// refused at accept when none is idle.
    public var connectionLimit: Int?
    /// The most event streams open at once (503 with `Retry-After` beyond); `nil` (the default)
    /// takes three quarters of the connection limit, at most 50,000, so that streams can never
    /// take the places evaluations need.
    public var eventStreamLimit: Int?
    /// The most connections from one client address; `nil` (the default) sets none. Behind a
    /// load balancer every connection comes from its address, so set it only for direct clients.
    public var connectionLimitPerAddress: Int?
    /// The memory libmicrohttpd gives one connection for its request line, header fields and
    /// buffers; a request whose header section does not fit is refused (431). Default: 16 KiB.
    public var connectionMemoryLimit: Int
    /// The most header fields one request may have (431 beyond). Default: 64.
    public var maximumHeaderCount: Int
    /// How long a connection may wait for its next request line, new or kept alive after a
    /// response; then it is closed. Default: 30 s. Under pressure the oldest idle connections
    /// are closed sooner.
    public var idleTimeout: Duration
    /// How long a request's whole header section may take after its request line, however
    /// slowly it keeps coming (a slow-header client is cut, not waited for). Default: 10 s.
    public var headerTimeout: Duration
    /// How long a request may take from its header section to its response sent (a client
    /// that stalls its body or stops reading the answer is cut). Default: 10 s. An event stream
    /// lasts as long as its client reads it; one whose client leaves events unread for longer
    /// than this is closed.
    public var requestTimeout: Duration
    /// How many events wait for one slow event-stream client; beyond, the oldest are dropped
    /// (each says "evaluate again", so the newest carries everything the dropped ones did).
    /// Default: 16.
    public var eventQueueCapacity: Int
    /// How long an event stream may go without an event before it gets a comment line, so
    /// proxies keep it open and a vanished client is noticed. Default: 15 s.
    public var eventKeepAliveInterval: Duration
    /// How often the server checks the context's generation for changes that no value of the
    /// server's own context shows (a targeting rule only some requests reach). Default: 100 ms.
    public var generationPollInterval: Duration
    /// How long the fleet layer (etcd) may be unreachable before `/readyz` says the server is not
    /// ready; meanwhile it serves the last good fleet layer. It also counts from the start,
    /// until the fleet is first reached. Default: 30 s.
    public var fleetGracePeriod: Duration
    /// Where the server reports what it refused and cut (at most once a second per kind, with
    /// a count of the rest) and libmicrohttpd's own messages. Default: standard error.
    public var log: @Sendable (String) -> Void

    /// The defaults described on each property.
    public init() {
        listenAddress = .defaultAddress
        managementAddress = nil
        tls = nil
        workerThreads = min(8, max(2, Self.processorCount))
        raisesDescriptorLimit = true
        connectionLimit = nil
        eventStreamLimit = nil
        connectionLimitPerAddress = nil
        connectionMemoryLimit = 16 * 1024
        maximumHeaderCount = 64
        idleTimeout = .seconds(30)
        headerTimeout = .seconds(10)
        requestTimeout = .seconds(10)
        eventQueueCapacity = 16
        eventKeepAliveInterval = .seconds(15)
        generationPollInterval = .milliseconds(100)
        fleetGracePeriod = .seconds(30)
        log = Self.logToStandardError
    }

    /// Writes `ensign serve: <message>` to standard error.
    public static let logToStandardError: @Sendable (String) -> Void = { message in
        let bytes = Array("ensign serve: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
