/// Where an HTTP server listens: `http://host:port` or `https://host:port`, with an optional
/// base path. A caller whose transport has no TLS parses with `allowingTLS: false`.
package struct HTTPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The URL scheme.
    package enum Scheme: String, Sendable, Hashable {
        /// Plain HTTP.
        case http
        /// HTTP over TLS.
        case https

        /// The port a URL without one means.
        package var defaultPort: Int { self == .http ? 80 : 443 }
    }

    /// `http` or `https`.
    package let scheme: Scheme
    /// The host name or address (IPv6 without brackets).
    package let host: String
    /// The TCP port.
    package let port: Int
    /// A path prefix for every request, without a trailing slash (usually empty).
    package let basePath: String
    /// The URL as given, for messages.
    package let description: String

    /// Parses `url`: `http://127.0.0.1:2379`, `https://etcd-0.etcd:2379/`, `http://[::1]:2379`,
    /// `https://flags.example.com/api`; `https` only when `allowingTLS`.
    package init(_ url: String, allowingTLS: Bool = true) throws(HTTPError) {
        let text = url.trimmingSpaces
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw .invalidURL(url, reason: "expected http://host:port")
        }
        let schemeName = text[..<schemeEnd.lowerBound].lowercased()
        guard let scheme = Scheme(rawValue: schemeName), scheme == .http || allowingTLS else {
            if schemeName == "https" {
                throw .invalidURL(url, reason: "https needs a transport with TLS, and this one has none")
            }
            let expected = allowingTLS ? "http or https" : "http"
            throw .invalidURL(url, reason: "the scheme must be \(expected), not '\(schemeName)'")
        }
        var rest = text[schemeEnd.upperBound...]
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        while path.hasSuffix("/") { path.removeLast() }
        guard !rest.contains("@") else {
            throw .invalidURL(url, reason: "credentials in the URL are not supported; configure them separately")
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL(url, reason: "unclosed '[' in host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw .invalidURL(url, reason: "unexpected text after the host")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw .invalidURL(url, reason: "no host") }
        var port = scheme.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw .invalidURL(url, reason: "the port must be a number from 1 to 65535")
            }
            port = value
        }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.basePath = path
        self.description = text
    }

    /// The `Host` header's value.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == scheme.defaultPort ? name : "\(name):\(port)"
    }

    /// The scheme, host and port, as a URL without a path: `https://flags.example.com`.
    package var origin: String { "\(scheme.rawValue)://\(hostHeader)" }

    /// Whether `other` is the same server (scheme, host and port): credentials go only there.
    package func isSameOrigin(as other: HTTPEndpoint) -> Bool {
        scheme == other.scheme && host.lowercased() == other.host.lowercased() && port == other.port
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    package var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
