import EnsignHTTP
import EnsignSupport

/// How the remote source exchanges HTTP messages with an OFREP server: EnsignHTTP's libcurl
/// client in the library (http and https, event streams), `URLSession` in
/// EnsignRemoteURLSession (Apple platforms, where libcurl is not available on iOS), a module of
/// its own so that this one stays free of Foundation, and a scripted fake in tests (every path
/// of the source runs without a socket).
package protocol OFREPTransport: Sendable {
    /// Whether it can reach `https` endpoints (it brings its own TLS).
    var supportsTLS: Bool { get }

    /// Whether it can follow event streams: a stream lasts until it is cancelled, and a
    /// transport that cannot cancel safely (`URLSession` on Linux) polls instead.
    var supportsEventStreams: Bool { get }

    /// Sends `request` to `endpoint` and returns the whole response within `timeout`.
    func send(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, timeout: Duration, cancellation: Cancellation
    ) throws(HTTPError) -> HTTPResponse

    /// Sends `request` and hands the response head to `onHead`, then each piece of the body to
    /// `onBody` as it arrives, until the body ends, `onBody` returns false, or an error.
    func stream(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, headTimeout: Duration, cancellation: Cancellation,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws
}

extension OFREPTransport {
    /// Plain HTTP only, unless a transport says otherwise.
    package var supportsTLS: Bool { false }

    /// Event streams, unless a transport says otherwise.
    package var supportsEventStreams: Bool { true }
}

/// The transport over EnsignHTTP's libcurl client: one connection per exchange, http or https,
/// with the configuration's TLS files.
package struct CurlTransport: OFREPTransport {
    /// How long connecting (TCP and TLS) may take.
    package var connectTimeout: Duration
    /// The TLS files for https servers (`nil`: the system's trust store, no client certificate).
    package var tls: HTTPTLSFiles?

    /// A transport whose connections may take `connectTimeout` to open.
    package init(connectTimeout: Duration, tls: HTTPTLSFiles? = nil) {
        self.connectTimeout = connectTimeout
        self.tls = tls
    }

    package var supportsTLS: Bool { true }

    package func send(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, timeout: Duration, cancellation: Cancellation
    ) throws(HTTPError) -> HTTPResponse {
        try HTTPConnection(
            endpoint: endpoint, dialTimeout: connectTimeout, cancellation: cancellation, maximumBodySize: 16 << 20,
            tls: tls
        ).send(request, timeout: timeout)
    }

    package func stream(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, headTimeout: Duration, cancellation: Cancellation,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws {
        // No idle timeout: an event stream is quiet between changes; TCP keepalive (set by the
        // client) notices a peer that vanished.
        try HTTPConnection(endpoint: endpoint, dialTimeout: connectTimeout, cancellation: cancellation, tls: tls)
            .stream(request, headTimeout: headTimeout, idleTimeout: nil, onHead: onHead, onBody: onBody)
    }
}
