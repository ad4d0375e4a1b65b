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
    /// for more bytes may last `idleTimeout` (`nil`: as long as the stream lives).
    package func stream(
        _ request: HTTPRequest, headTimeout: Duration, idleTimeout: Duration?,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws {
        var callbackError: (any Error)?
        _ = try exchange(
            request, headDeadline: ContinuousClock.now + headTimeout,
            bodyWait: .idle(idleTimeout),
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
    private enum BodyWait {
        case until(ContinuousClock.Instant)
        case idle(Duration?)
    }

    /// The exchange behind ``send(_:timeout:)`` and ``stream(_:headTimeout:idleTimeout:onHead:onBody:)``.
    private func exchange(
        _ request: HTTPRequest, headDeadline: ContinuousClock.Instant, bodyWait: BodyWait,
        onHead: (HTTPResponseHead) -> Bool = { _ in true }, onBody: ([UInt8]) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        #if canImport(CCurl)
            let exchange = try CurlExchange(request, to: endpoint, dialTimeout: dialTimeout, tls: tls)
            let wait: CurlExchange.BodyWait =
                switch bodyWait {
                case .until(let deadline): .until(deadline)
                case .idle(let timeout): .idle(timeout)
                }
            // The receivers are called only while `run` runs.
            return try withoutActuallyEscaping(onHead) { onHead throws(HTTPError) in
                try withoutActuallyEscaping(onBody) { onBody throws(HTTPError) in
                    try exchange.run(
                        headDeadline: headDeadline, bodyWait: wait, cancellation: cancellation, onHead: onHead,
                        onBody: onBody)
                }
            }
        #else
            throw .connectFailed(
                "this platform has no libcurl: use the URLSession transport (EnsignRemoteURLSession)")
        #endif
    }
}
