/// One HTTP/1.1 exchange over its own TCP connection: a request with a complete response,
/// or a request whose (chunked) response body is delivered piece by piece as it arrives, for
/// as long as the server streams it.
///
/// Requests ask the server to close the connection afterwards; etcd's gateway answers on
/// loopback in well under a millisecond, so pooling is not worth its state.
struct HTTPConnection {
    let endpoint: HTTPEndpoint
    /// How long connecting may take.
    var dialTimeout: Duration
    /// Wakes every wait when the owner stops.
    var cancellation: Cancellation?
    /// The largest complete body accepted.
    var maximumBodySize = 64 << 20

    /// Sends `request` and returns the whole response; everything (connect included) must
    /// finish within `timeout`.
    func send(_ request: HTTPRequest, timeout: Duration) throws(HTTPError) -> HTTPResponse {
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
    func stream(
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
        bodyWait: BodyWait, onHead: (HTTPResponseHead) -> Bool = { _ in true },
        onBody: ([UInt8]) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        let dialDeadline = min(headDeadline, ContinuousClock.now + dialTimeout)
        let socket = try SocketConnection.connect(
            host: endpoint.host, port: endpoint.port, timeout: ContinuousClock.now.duration(to: dialDeadline),
            cancellation: cancellation)
        defer { socket.close() }
        try socket.send(request.serialized(for: endpoint), deadline: headDeadline)
        var buffer: [UInt8] = []
        let head = try readHead(from: socket, buffer: &buffer, deadline: headDeadline)
        guard onHead(head) else { return head }
        switch try head.bodyFraming(forMethod: request.method) {
        case .none:
            return head
        case .length(let length):
            var remaining = length
            while remaining > 0 {
                if buffer.isEmpty,
                    try socket.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
                {
                    throw .connectionClosed("the body ended after \(length - remaining) of \(length) bytes")
                }
                let piece = Array(buffer.prefix(remaining))
                buffer.removeFirst(piece.count)
                remaining -= piece.count
                guard onBody(piece) else { return head }
            }
        case .chunked:
            var decoder = ChunkedDecoder()
            while !decoder.isComplete {
                if buffer.isEmpty,
                    try socket.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
                {
                    throw .connectionClosed("the chunked body ended early")
                }
                var piece: [UInt8] = []
                let used = try decoder.feed(buffer[...], into: &piece)
                buffer.removeFirst(used)
                if !piece.isEmpty, !onBody(piece) { return head }
            }
        case .untilClose:
            while true {
                if buffer.isEmpty,
                    try socket.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
                {
                    return head
                }
                let piece = buffer
                buffer.removeAll()
                guard onBody(piece) else { return head }
            }
        }
        return head
    }

    /// How long reading the body may wait for bytes.
    private enum BodyWait {
        /// Until a fixed time (a whole exchange's timeout).
        case until(ContinuousClock.Instant)
        /// This long for each read (`nil`: without limit), for streams.
        case idle(Duration?)

        /// The deadline of the next read.
        var deadline: ContinuousClock.Instant? {
            switch self {
            case .until(let deadline): return deadline
            case .idle(let timeout): return timeout.map { ContinuousClock.now + $0 }
            }
        }
    }

    /// Reads up to the blank line that ends the head (skipping `100 Continue` heads).
    private func readHead(
        from socket: SocketConnection, buffer: inout [UInt8], deadline: ContinuousClock.Instant
    ) throws(HTTPError) -> HTTPResponseHead {
        var searchFrom = 0
        while true {
            if let end = Self.endOfHead(in: buffer, from: searchFrom) {
                let head = try HTTPResponseHead(parsing: buffer[..<end])
                buffer.removeFirst(end + 4)
                if (100..<200).contains(head.status) {
                    searchFrom = 0
                    continue
                }
                return head
            }
            searchFrom = max(0, buffer.count - 3)
            guard buffer.count < 65536 else { throw .tooLarge("the response head") }
            if try socket.receive(into: &buffer, deadline: deadline, while: "waiting for the response") == 0 {
                throw .connectionClosed(buffer.isEmpty ? "no response" : "the response head ended early")
            }
        }
    }

    /// The index of `\r\n\r\n` in `bytes` at or after `start`.
    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}
