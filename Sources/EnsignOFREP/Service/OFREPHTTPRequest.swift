/// An HTTP request as the OFREP service sees it: no socket, so tests and the fuzz target
/// build one directly and the HTTP server hands one over per request.
///
/// ```swift
/// let request = OFREPHTTPRequest(
///     method: "POST", target: "/ofrep/v1/evaluate/flags/banner", headers: ["Content-Type": "application/json"],
///     body: Array(#"{"context": {"targetingKey": "u1"}}"#.utf8))
/// ```
public struct OFREPHTTPRequest: Sendable, Hashable {
    /// The method, upper case: `POST`.
    public var method: String
    /// The path, still percent-encoded, without the query: `/ofrep/v1/evaluate/flags/my%20flag`.
    public var path: String
    /// The query after `?`, if any (`flagConfigEtag=...`; informational, see ADR 0008).
    public var query: String?
    /// The header fields, names in lower case (HTTP names are case-insensitive).
    public var headers: [String: String]
    /// The body's bytes.
    public var body: [UInt8]

    /// Creates a request from a request target (path and optional query) and header fields
    /// with names in any case; a repeated name keeps the last value.
    public init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        if let question = target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = String(target[target.index(after: question)...])
        } else {
            path = target
            query = nil
        }
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A request whose path and query are already apart and whose header names are already
    /// lower case: what the HTTP server hands over, without a second pass over either.
    package init(method: String, path: String, query: String?, lowercasedHeaders: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = lowercasedHeaders
        self.body = body
    }

    /// The value of the header field `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
