/// An HTTP request: method, path, headers and body.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    package var method: String
    /// The path and query, after the endpoint's base path.
    package var path: String
    /// Header fields besides `Host` and `Content-Length`, which libcurl adds.
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
