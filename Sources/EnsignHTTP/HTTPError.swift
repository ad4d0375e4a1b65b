/// Why an HTTP exchange failed.
package enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL cannot be used.
    case invalidURL(String, reason: String)
    /// The request cannot be sent as it is (a header with a line break).
    case invalidRequest(String)
    /// The host name did not resolve.
    case unresolvable(host: String, reason: String)
    /// The TCP connection could not be made (refused, unreachable, …).
    case connectFailed(String)
    /// Nothing happened within the time allowed; what was being waited for.
    case timedOut(String)
    /// The connection broke or was closed before the response was complete.
    case connectionClosed(String)
    /// The server's bytes are not valid HTTP/1.1.
    case malformed(String)
    /// The response is larger than the client accepts.
    case tooLarge(String)
    /// TLS with the server failed; what went wrong and what to do about it.
    case tls(String)
    /// The exchange was cancelled (the source is stopping).
    case cancelled

    package var description: String {
        switch self {
        case .invalidURL(let url, let reason): return "invalid URL '\(url)': \(reason)"
        case .invalidRequest(let reason): return "invalid request: \(reason)"
        case .unresolvable(let host, let reason): return "cannot resolve '\(host)': \(reason)"
        case .connectFailed(let reason): return "cannot connect: \(reason)"
        case .timedOut(let what): return "timed out \(what)"
        case .connectionClosed(let reason): return "connection closed: \(reason)"
        case .malformed(let reason): return "malformed HTTP response: \(reason)"
        case .tooLarge(let what): return "\(what) is too large"
        case .tls(let reason): return "TLS with the server failed: \(reason)"
        case .cancelled: return "cancelled"
        }
    }
}
