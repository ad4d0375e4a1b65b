import EnsignHTTP

/// Where the bytes of a response come from: the raw client's socket.
protocol HTTPByteSource {
    /// Appends the bytes that arrive next to `buffer` and returns how many (0: the peer closed
    /// the connection), waiting no later than `deadline` (`nil`: without limit).
    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant?, while activity: String)
        throws(HTTPError) -> Int
}

/// The server tests' reader of raw responses (the product's client leaves HTTP to libcurl), so
/// the tests see exactly the bytes libmicrohttpd sent. Reads one HTTP/1.1 response from a byte source: the head (skipping `1xx` heads), then the
/// body as its head frames it (none, `Content-Length`, chunked, or until the peer closes),
/// handing the body out piece by piece as it arrives.
///
/// It is the part of an exchange after the request is sent, apart from the socket, so every
/// reader of the server's bytes can run without one.
enum HTTPResponseReader {
    /// How long reading the body may wait for bytes.
    enum BodyWait {
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

    /// The largest response head accepted.
    static let maximumHeadSize = 65536

    /// Reads the response to a `method` request from `source`: calls `onHead` with its head
    /// (returning false stops there), then `onBody` with each decoded piece of the body until
    /// the body ends or `onBody` returns false. Returns the head.
    static func read(
        from source: some HTTPByteSource, method: String, headDeadline: ContinuousClock.Instant, bodyWait: BodyWait,
        onHead: (HTTPResponseHead) -> Bool, onBody: ([UInt8]) -> Bool
    ) throws(HTTPError) -> HTTPResponseHead {
        var buffer: [UInt8] = []
        let head = try readHead(from: source, buffer: &buffer, deadline: headDeadline)
        guard onHead(head) else { return head }
        switch try head.bodyFraming(forMethod: method) {
        case .none:
            return head
        case .length(let length):
            var remaining = length
            while remaining > 0 {
                if buffer.isEmpty,
                    try source.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
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
                    try source.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
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
                    try source.receive(into: &buffer, deadline: bodyWait.deadline, while: "reading the body") == 0
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

    /// Reads up to the blank line that ends the head (skipping `100 Continue` heads).
    private static func readHead(
        from source: some HTTPByteSource, buffer: inout [UInt8], deadline: ContinuousClock.Instant
    ) throws(HTTPError) -> HTTPResponseHead {
        var searchFrom = 0
        while true {
            if let end = endOfHead(in: buffer, from: searchFrom) {
                let head = try HTTPResponseHead(parsing: buffer[..<end])
                buffer.removeFirst(end + 4)
                if (100..<200).contains(head.status) {
                    searchFrom = 0
                    continue
                }
                return head
            }
            searchFrom = max(0, buffer.count - 3)
            guard buffer.count < maximumHeadSize else { throw .tooLarge("the response head") }
            if try source.receive(into: &buffer, deadline: deadline, while: "waiting for the response") == 0 {
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
