/// Where `ensign serve` listens and the bounds it keeps, whatever clients do.
///
/// ```swift
/// var options = OFREPServerOptions()
/// options.listenAddress = try ListenAddress(parsing: "127.0.0.1:8016")
/// options.connectionTimeoutSeconds = 10
/// ```
public struct OFREPServerOptions: Sendable {
    /// Where to listen. Default: `127.0.0.1:8016`, loopback only (put a TLS-terminating proxy
    /// in front to serve other machines).
    public var listenAddress: ListenAddress
    /// How many connections are open at once, event streams included; more are refused at accept.
    public var connectionLimit: Int
    /// The memory libmicrohttpd gives one connection for its request line, headers and buffers;
    /// a request whose header section does not fit is refused by libmicrohttpd (431).
    public var connectionMemoryLimit: Int
    /// The most header fields one request may have (431 beyond).
    public var maximumHeaderCount: Int
    /// Seconds a connection may stay silent (a slow or stalled client) before it is closed.
    public var connectionTimeoutSeconds: Int
    /// How many event-stream clients are served at once (503 beyond).
    public var maximumEventStreamClients: Int
    /// How many events wait for one slow event-stream client; beyond, the oldest are dropped
    /// (each says "evaluate again", so the newest carries everything the dropped ones did).
    public var eventQueueCapacity: Int
    /// How often an idle event stream gets a comment line, so proxies keep it open and a
    /// vanished client is noticed.
    public var eventKeepAliveInterval: Duration
    /// How often the server checks the context's generation for changes that no value of the
    /// server's own context shows (a targeting rule only some requests reach).
    public var generationPollInterval: Duration

    /// The defaults: loopback port 8016, 256 connections of 32 KiB, 64 header fields, a 10 s
    /// time-out, 128 event streams with 16 queued events each, a 15 s keep-alive.
    public init() {
        listenAddress = .defaultAddress
        connectionLimit = 256
        connectionMemoryLimit = 32 * 1024
        maximumHeaderCount = 64
        connectionTimeoutSeconds = 10
        maximumEventStreamClients = 128
        eventQueueCapacity = 16
        eventKeepAliveInterval = .seconds(15)
        generationPollInterval = .milliseconds(100)
    }
}
