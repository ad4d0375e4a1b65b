/// What the OFREP service answers: a status, header fields and a body, for the HTTP server
/// to send as they are.
public struct OFREPHTTPResponse: Sendable, Hashable {
    /// The status code: 200, 304, 400, …
    public var status: Int
    /// Header fields in the order to send them (`Content-Type`, `ETag`, …); the server adds
    /// `Content-Length`, `Date` and `Connection` itself.
    public var headers: [(name: String, value: String)]
    /// The body; empty for 304.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> Self {
        OFREPHTTPResponse(
            status: status, headers: jsonHeaders(adding: headers), body: Array(text.utf8))
    }

    /// A JSON response whose body is already bytes.
    package static func json(_ status: Int, bytes: [UInt8], headers: [(name: String, value: String)] = []) -> Self {
        OFREPHTTPResponse(status: status, headers: jsonHeaders(adding: headers), body: bytes)
    }

    private static let contentTypeJSON: [(name: String, value: String)] = [("Content-Type", "application/json")]

    /// `Content-Type: application/json` and `headers`; one shared array when there are no others,
    /// rather than a new one for every answer.
    private static func jsonHeaders(adding headers: [(name: String, value: String)]) -> [(name: String, value: String)]
    {
        headers.isEmpty ? contentTypeJSON : contentTypeJSON + headers
    }

    /// The value of the header field `name` (any case), the first if repeated.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Compares status, headers (in order) and body.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers, by: ==)
    }

    /// Hashes status and body (headers are compared, not hashed).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}
