#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A numeric host and a port to listen on: `127.0.0.1:8016`, `[::1]:8016`, `localhost:0`
/// (port 0: the system chooses one).
///
/// ```swift
/// let address = try ListenAddress(parsing: "127.0.0.1:8016")
/// ```
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host as given, without brackets: `127.0.0.1`, `::1`.
    public var host: String
    /// The port; 0 lets the system choose.
    public var port: UInt16

    /// Why an address cannot be used.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and the expected form.
        public var description: String
    }

    /// `127.0.0.1:8016`.
    public static let defaultAddress = ListenAddress(host: "127.0.0.1", port: 8016)

    /// Creates an address.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, the host an IPv4 address, `[IPv6]` or `localhost`.
    public init(parsing text: String) throws(Invalid) {
        let form = "expected HOST:PORT, such as 127.0.0.1:8016 or [::1]:8016"
        guard let colon = text.lastIndex(of: ":") else { throw Invalid(description: "'\(text)': \(form)") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]) else {
            throw Invalid(description: "'\(text)': \(form), the port 0-65535")
        }
        self.init(host: host == "localhost" ? "127.0.0.1" : host, port: port)
        guard (try? socketAddress()) != nil else {
            throw Invalid(description: "'\(host)' is not a numeric IPv4 or IPv6 address (\(form))")
        }
    }

    /// `host:port`, an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether the host is a loopback address, reachable from this machine only.
    public var isLoopback: Bool { host == "::1" || host.hasPrefix("127.") }

    /// The socket address, as bytes for `sockaddr_in` or `sockaddr_in6`, and whether it is IPv6.
    func socketAddress() throws(Invalid) -> (bytes: [UInt8], isIPv6: Bool) {
        var ipv4 = sockaddr_in()
        if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            return (withUnsafeBytes(of: ipv4) { Array($0) }, false)
        }
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
            return (withUnsafeBytes(of: ipv6) { Array($0) }, true)
        }
        throw Invalid(description: "'\(host)' is not a numeric address")
    }
}
