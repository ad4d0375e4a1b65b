import EnsignSupport

/// One HTTP exchange: a request with a complete response, or a request whose response body is
/// delivered piece by piece as it arrives, for as long as the server streams it.
///
/// On libcurl (``CurlExchange``): http and https, TLS with the system's trust store or given
/// files, HTTP/2 where the server offers it over TLS, proxies from the environment. Redirects
/// are never followed and an https endpoint is never spoken to in clear. Every wait wakes at
/// once when the ``Cancellation`` fires.
package struct HTTPConnection {
    package let endpoint: HTTPEndpoint
    /// How long connecting (TCP and TLS) may take.
    package var dialTimeout: Duration
    /// Wakes every wait when the owner stops.
    package var cancellation: Cancellation?
    /// The largest complete body accepted.
    package var maximumBodySize = 64 << 20
    /// The TLS files for an https endpoint (`nil`: trust the system's authorities, no client certificate).
    package var tls: HTTPTLSFiles?

    /// A connection to `endpoint` that may take `dialTimeout` to connect, its waits woken by `cancellation`.
    package init(
        endpoint: HTTPEndpoint, dialTimeout: Duration, cancellation: Cancellation? = nil,
        maximumBodySize: Int = 64 << 20, tls: HTTPTLSFiles? = nil
    ) {
        self.endpoint = endpoint
        self.dialTimeout = dialTimeout
        self.cancellation = cancellation
        self.maximumBodySize = maximumBodySize
        self.tls = tls
    }

    /// Sends `request` and returns the whole response; everything (connect included) must
    /// finish within `timeout`.
    package func send(_ request: HTTPRequest, timeout: Duration) throws(HTTPError) -> HTTPResponse {
        let deadline = ContinuousClock.now + timeout
        var body: [UInt8] = []
        var sizeError: HTTPError?
        let head = try exchange(request, headDeadline: deadline, bodyWait: .until(deadline)) { piece in
            body.append(contentsOf: piece)
            if body.count > maximumBodySize {
                sizeError = .tooLarge("the response body")
                return false
            }
            return true
        }
        if let sizeError { throw sizeError }
        return HTTPResponse(head: head, body: body)
    }

    /// Sends `request`, calls `onHead` with the response head, then `onBody` with each piece
    /// of the decoded body as soon as it arrives, until the body ends, `onBody` returns
    /// false, or an error. The head must arrive within `headTimeout`; afterwards each wait
    /// for more bytes may last `idleTimeout` (`nil`: as long as the stream lives), and a
    /// `livenessCheck` that goes unanswered ends the stream with ``HTTPError/timedOut(_:)``.
    package func stream(
        _ request: HTTPRequest, headTimeout: Duration, idleTimeout: Duration?,
        livenessCheck: LivenessCheck? = nil,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws {
        var callbackError: (any Error)?
        _ = try exchange(
            request, headDeadline: ContinuousClock.now + headTimeout,
            bodyWait: .idle(idleTimeout), check: livenessCheck,
            onHead: { head in
                do { try onHead(head) } catch {
                    callbackError = error
                    return false
                }
                return true
            },
            onBody: { piece in
                do { return try onBody(piece) } catch {
                    callbackError = error
                    return false
                }
            })
        if let callbackError { throw callbackError }
    }

    /// How the body's wait is bounded.
    enum BodyWait {
        /// The whole body by a deadline.
        case until(ContinuousClock.Instant)
        /// Each wait for more at most this long (`nil`: as long as the stream lives).
        case idle(Duration?)
    }

    /// A check that the server of a long, quiet stream is still there: a stream from a
    /// process that froze (or a host cut off without a reset) stays open and silent, which
    /// TCP keepalive notices only after minutes.
    package struct LivenessCheck: Sendable {
        /// How often the check goes out while the stream is open.
        package var interval: Duration
        /// How long it may take to be answered (any status) before the server counts as gone.
        package var timeout: Duration
        /// A request the server answers at once when it is alive.
        package var request: HTTPRequest

        /// A check sending `request` every `interval`, answered within `timeout`.
        package init(interval: Duration, timeout: Duration, request: HTTPRequest) {
            self.interval = interval
            self.timeout = timeout
            self.request = request
        }
    }

    /// The exchange behind ``send(_:timeout:)`` and ``stream(_:headTimeout:idleTimeout:onHead:onBody:)``.
    private func exchange(
        _ request: HTTPRequest, headDeadline: ContinuousClock.Instant, bodyWait: BodyWait,
        check: LivenessCheck? = nil, onHead: (HTTPResponseHead) -> Bool = { _ in true },
        onBody: ([UInt8]) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        #if canImport(CCurl)
            let exchange = try CurlExchange(request, to: endpoint, dialTimeout: dialTimeout, tls: tls)
            // The receivers are called only while `run` runs.
            return try withoutActuallyEscaping(onHead) { onHead throws(HTTPError) in
                try withoutActuallyEscaping(onBody) { onBody throws(HTTPError) in
                    try exchange.run(
                        headDeadline: headDeadline, bodyWait: bodyWait, check: check, cancellation: cancellation,
                        onHead: onHead, onBody: onBody)
                }
            }
        #else
            throw .connectFailed(
                "this platform has no libcurl: use the URLSession transport (EnsignRemoteURLSession)")
        #endif
    }
}
