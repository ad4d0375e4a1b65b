import EnsignRemote
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension OFREPRemoteSource {
    /// Whether a source made with ``init(configuration:sessionConfiguration:)`` follows the
    /// server's event streams: on Apple platforms; not on Linux, where FoundationNetworking
    /// cannot cancel a task safely and a stream ends only when cancelled, so the source polls
    /// (every ``OFREPRemoteConfiguration/pollInterval``: set one there, as it is off by default).
    public static var urlSessionFollowsEventStreams: Bool { URLSessionTaskRouter.cancelsTasks }

    /// A source that reaches its server through `URLSession`: `https://` (TLS) as well as `http://`.
    ///
    /// Everything else is the source of ``OFREPRemoteSource/init(configuration:)``: the same
    /// requests, event streams, polling, backoff, `Retry-After` and offline cache. The server's
    /// certificate is checked against the platform's trust store (the keychain and App Transport
    /// Security on Apple platforms; on Linux, FoundationNetworking's libcurl with the system's
    /// CA bundle, `/etc/ssl/certs/ca-certificates.crt` on Debian). A certificate that does not
    /// verify fails the connection, like an unreachable server: the source keeps its values,
    /// reports the failure and tries again.
    ///
    /// ```swift
    /// import EnsignRemoteURLSession
    ///
    /// let remote = try OFREPRemoteSource(
    ///     configuration: OFREPRemoteConfiguration(
    ///         baseURL: "https://flags.example.com", evaluationContext: ["targetingKey": "user-42"]))
    /// context.attach(remote)
    /// ```
    ///
    /// Redirects are not followed (credentials would follow them): a 3xx is reported as the
    /// server's answer. An event stream the server names on another origin gets no
    /// credentials, and one on plain `http://` is not used when the base URL is `https://`. On
    /// Linux the source polls rather than following event streams, and a request it no longer
    /// needs is left to end on its own rather than cancelled (see
    /// ``urlSessionFollowsEventStreams``).
    /// ``OFREPRemoteConfiguration/connectTimeout`` does not apply: the request timeout bounds
    /// connecting too. The transport asks for fresh responses itself, whatever the
    /// configuration's cache policy.
    ///
    /// - Parameter sessionConfiguration: The session's settings (proxies, TLS minimum version,
    ///   extra headers); `.ephemeral` by default, which keeps no cookies or cache on disk.
    /// - Throws: ``OFREPRemoteError/invalidConfiguration(_:)`` for a base URL that is not
    ///   `http://` or `https://host[:port][/path]`.
    public convenience init(
        configuration: OFREPRemoteConfiguration, sessionConfiguration: URLSessionConfiguration = .ephemeral
    ) throws(OFREPRemoteError) {
        try self.init(configuration: configuration, transport: URLSessionTransport(configuration: sessionConfiguration))
    }
}
