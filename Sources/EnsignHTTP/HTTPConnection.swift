/// One HTTP/1.1 exchange over its own TCP connection: a request with a complete response,
/// or a request whose (chunked) response body is delivered piece by piece as it arrives, for
/// as long as the server streams it.
///
/// Requests ask the server to close the connection afterwards; etcd's gateway answers on
/// loopback in well under a millisecond, so pooling is not worth its state.
package struct HTTPConnection {
    package let endpoint: HTTPEndpoint
    /// How long connecting may take.
    package var dialTimeout: Duration
    /// Wakes every wait when the owner stops.
    package var cancellation: Cancellation?
    /// The largest complete body accepted.
    package var maximumBodySize = 64 << 20

    /// A connection to `endpoint` that may take `dialTimeout` to connect, its waits woken by `cancellation`.
    package init(
        endpoint: HTTPEndpoint, dialTimeout: Duration, cancellation: Cancellation? = nil,
        maximumBodySize: Int = 64 << 20
    ) {
        self.endpoint = endpoint
        self.dialTimeout = dialTimeout
        self.cancellation = cancellation
        self.maximumBodySize = maximumBodySize
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
        let head = try exchange(
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
        _ = head
        if let callbackError { throw callbackError }
    }

    /// The exchange behind ``send(_:timeout:)`` and ``stream(_:headTimeout:idleTimeout:onHead:onBody:)``.
    private func exchange(
        _ request: HTTPRequest, headDeadline: ContinuousClock.Instant,
        bodyWait: HTTPResponseReader.BodyWait, onHead: (HTTPResponseHead) -> Bool = { _ in true },
        onBody: ([UInt8]) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        // Never send an https request in the clear.
        guard endpoint.scheme == .http else {
            throw .invalidURL(endpoint.description, reason: "the socket client has no TLS")
        }
        let dialDeadline = min(headDeadline, ContinuousClock.now + dialTimeout)
        let socket = try SocketConnection.connect(
            host: endpoint.host, port: endpoint.port, timeout: ContinuousClock.now.duration(to: dialDeadline),
            cancellation: cancellation)
        defer { socket.close() }
        try socket.send(request.serialized(for: endpoint), deadline: headDeadline)
        return try HTTPResponseReader.read(
            from: socket, method: request.method, headDeadline: headDeadline, bodyWait: bodyWait, onHead: onHead,
            onBody: onBody)
    }
}
