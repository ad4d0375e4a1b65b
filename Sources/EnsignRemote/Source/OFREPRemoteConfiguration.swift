import Ensign
import EnsignHTTP

/// How to reach an OFREP server (`ensign serve`, flagd, or any other) and what to ask it for.
///
/// ```swift
/// var configuration = OFREPRemoteConfiguration(
///     baseURL: "http://127.0.0.1:8016", evaluationContext: ["targetingKey": "user-42", "plan": "pro"])
/// configuration.cacheFile = AppContextConfiguration.defaultStateDirectory(forApp: "banking").map { $0 + "/remote-flags.json" }
/// configuration.headers = ["Authorization": "Bearer " + token]  // from the keychain or a file, never a literal
/// ```
///
/// `http://` and `https://` URLs. Over https the server's certificate is checked against the
/// system's trust store, or against ``caFile`` when one is given; a server that asks for a client
/// certificate gets ``certificateFile`` and ``keyFile``.
public struct OFREPRemoteConfiguration: Sendable {
    /// The server's base URL, before `/ofrep`: `http://127.0.0.1:8016`, `http://flags.internal/api`.
    public var baseURL: String
    /// The context every flag is evaluated in (the static-context paradigm: one user, one
    /// device); sent as the request's `context`, `targetingKey` included.
    public var evaluationContext: EvaluationContext
    /// Extra request headers, for credentials (`Authorization`, `X-API-Key`); sent to event
    /// streams only on the server's own host and port. Never logged.
    public var headers: [String: String]
    /// The file that keeps the last good evaluation, so the next start has it offline
    /// (`nil`: no cache). Its directory must be private to this user; it is created 0700.
    public var cacheFile: String?
    /// How old a cached evaluation may be and still be used at start (30 days).
    public var cacheTimeToLive: Duration
    /// When the cache file is used: ``OFREPCacheMode/localCacheFirst`` (the default, as OFREP
    /// ADR 0009 recommends) serves it as `attach` returns; ``OFREPCacheMode/networkFirst`` waits
    /// for the server and falls back to it only offline; ``OFREPCacheMode/disabled`` ignores it.
    public var cacheMode: OFREPCacheMode = .localCacheFirst
    /// How often to ask again when no event stream is connected; `nil` (the default, as OFREP
    /// ADR 0010 decides for static-context clients): never, so values stay put for a session
    /// and only event streams, reconnections and ``OFREPRemoteSource/refresh()`` (call it when
    /// the app returns to the foreground) fetch.
    public var pollInterval: Duration?
    /// flagd's selector, `flagSetId=ID`: ask for that flag set's flags alone (`nil`: every
    /// flag). Sent as the `Flagd-Selector` header with every request and stream; the cache
    /// keeps each selection apart.
    public var selector: String?
    /// Whether to follow the server's event streams (ADR 0008) when it offers them.
    public var followsEventStreams: Bool
    /// How long one request may take, connecting included (10 seconds, OFREP's default).
    public var requestTimeout: Duration
    /// How long connecting may take.
    public var connectTimeout: Duration
    /// A PEM file of the certificate authorities to trust for an https server (`nil`: the
    /// system's trust store), for a server whose certificate a private authority issued.
    public var caFile: String?
    /// A PEM client certificate, for an https server that asks for one (mutual TLS).
    public var certificateFile: String?
    /// The client certificate's private key, a PEM file (never the key itself).
    public var keyFile: String?
    /// What ``fromEnvironment(evaluationContext:baseURL:headers:variables:)`` skipped in
    /// `OFREP_HEADERS`, and why; the source reports each as a warning in the context's status.
    public internal(set) var environmentWarnings: [String] = []
    /// The first wait after a failure; it doubles, with jitter, up to ``maximumBackoff``.
    public var initialBackoff: Duration
    /// The longest wait between attempts (a `Retry-After` may ask for longer, and is obeyed).
    public var maximumBackoff: Duration

    /// A configuration with the defaults: follow event streams, no timer polling (ADR 0010),
    /// no cache file.
    public init(
        baseURL: String, evaluationContext: EvaluationContext, headers: [String: String] = [:],
        cacheFile: String? = nil
    ) {
        self.baseURL = baseURL
        self.evaluationContext = evaluationContext
        self.headers = headers
        self.cacheFile = cacheFile
        cacheTimeToLive = .seconds(30 * 24 * 3600)
        pollInterval = nil
        followsEventStreams = true
        requestTimeout = .seconds(10)
        connectTimeout = .seconds(2)
        initialBackoff = .milliseconds(250)
        maximumBackoff = .seconds(30)
    }
}

extension OFREPRemoteConfiguration {
    /// The TLS files for the HTTP client, or `nil` when none is given.
    var tlsFiles: HTTPTLSFiles? {
        guard caFile != nil || certificateFile != nil || keyFile != nil else { return nil }
        return HTTPTLSFiles(certificateAuthorities: caFile, certificate: certificateFile, key: keyFile)
    }
}

extension OFREPRemoteConfiguration {
    /// ``environmentWarnings`` as the warnings each delivery reports.
    var environmentDiagnostics: [Diagnostic] {
        environmentWarnings.map { Diagnostic(.warning, at: .unknown("env:" + EnvironmentVariable.headers), $0) }
    }
}
