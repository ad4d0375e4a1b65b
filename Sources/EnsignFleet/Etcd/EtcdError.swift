/// Why an etcd operation failed.
public enum EtcdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration cannot be used: a bad or `https://` endpoint, no endpoints, an empty prefix.
    case invalidConfiguration(String)
    /// No endpoint answered; what each attempt found.
    case unreachable([String])
    /// etcd refused the request: its gRPC status code and message.
    case server(endpoint: String, code: Int, message: String)
    /// The revision asked for was compacted; the oldest revision still available.
    case compacted(endpoint: String, compactRevision: Int64)
    /// The answer is not what etcd's gateway sends.
    case malformedResponse(endpoint: String, detail: String)
    /// The client was stopped.
    case cancelled

    /// The error as one sentence.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): return "invalid etcd configuration: \(reason)"
        case .unreachable(let attempts): return "etcd is unreachable: \(attempts.joined(separator: "; "))"
        case .server(let endpoint, let code, let message):
            return "etcd at \(endpoint) refused the request: \(message) (gRPC code \(code))"
        case .compacted(let endpoint, let revision):
            return "etcd at \(endpoint) compacted the revision asked for (the oldest available is \(revision))"
        case .malformedResponse(let endpoint, let detail):
            return "unexpected answer from etcd at \(endpoint): \(detail)"
        case .cancelled: return "cancelled"
        }
    }

    /// Whether another endpoint may succeed where this failed without the request having
    /// been applied (the server has no leader, is unavailable, or could not be reached).
    var isRetryableElsewhere: Bool {
        switch self {
        case .unreachable: return true
        case .server(_, let code, let message):
            return code == 14 || message.contains("no leader")
        default: return false
        }
    }
}
