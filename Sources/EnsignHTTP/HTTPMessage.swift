/// An HTTP/1.1 request: method, path, headers and body.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    package var method: String
    /// The path and query, after the endpoint's base path.
    package var path: String
    /// Header fields besides `Host`, `Content-Length` and `Connection`.
    package var headers: [(name: String, value: String)]
    /// The body bytes.
    package var body: [UInt8]

    /// A request; a `POST` by default.
    package init(
        method: String = "POST", path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The request's bytes for `endpoint`, with `Host`, `Content-Length` and `Connection: close`.
    package func serialized(for endpoint: HTTPEndpoint) -> [UInt8] {
        var text = "\(method) \(endpoint.basePath)\(path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8) + body
    }
}

/// The status line and headers of a response.
package struct HTTPResponseHead: Sendable {
    /// The status code.
    package var status: Int
    /// The reason phrase.
    package var reason: String
    /// The header fields, in order.
    package var headers: [(name: String, value: String)]

    /// The first value of the header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// A head from its parts (a transport that parses responses itself, such as `URLSession`).
    package init(status: Int, reason: String, headers: [(name: String, value: String)]) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// Parses the bytes before the blank line: `HTTP/1.1 200 OK`, then `Name: value` lines.
    package init(parsing bytes: ArraySlice<UInt8>) throws(HTTPError) {
        // Split on bytes: as Characters, "\r\n" is one grapheme and never equals "\n".
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw .malformed("empty response head") }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else {
            throw .malformed("invalid status line '\(statusLine.prefix(80))'")
        }
        self.status = status
        self.reason = parts.count > 2 ? String(parts[2]) : ""
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("invalid header line '\(line.prefix(80))'")
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces))
        }
        self.headers = headers
    }

    /// How the body is delimited.
    package func bodyFraming(forMethod method: String) throws(HTTPError) -> BodyFraming {
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) { return .none }
        if let encoding = header("Transfer-Encoding") {
            guard encoding.lowercased().split(separator: ",").last?.trimmingSpaces == "chunked" else {
                throw .malformed("unsupported Transfer-Encoding '\(encoding)'")
            }
            return .chunked
        }
        if let length = header("Content-Length") {
            guard let count = Int(length), count >= 0 else { throw .malformed("invalid Content-Length '\(length)'") }
            return .length(count)
        }
        return .untilClose
    }

    /// How a response body ends.
    package enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }
}

/// A complete response.
package struct HTTPResponse: Sendable {
    /// The status line and headers.
    package var head: HTTPResponseHead
    /// The whole body, decoded.
    package var body: [UInt8]

    /// A response with `head` and `body`.
    package init(head: HTTPResponseHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    /// The status code.
    package var status: Int { head.status }
}
