/// The secret a client must present, as `Authorization: Bearer <token>` or `X-API-Key: <token>`
/// (the specification's two security schemes); either header is accepted.
///
/// Read it from a file or an environment variable, never a command-line argument (other
/// users can read a process's arguments):
///
/// ```swift
/// let credentials = try OFREPCredentials(token: String(contentsOfFile: "/run/secrets/ofrep-token", encoding: .utf8))
/// ```
public struct OFREPCredentials: Sendable {
    private let token: [UInt8]

    /// Why a token is refused before the server starts.
    public struct InvalidToken: Error, Sendable, CustomStringConvertible {
        /// What is wrong with it.
        public var description: String
    }

    /// Creates credentials from a token; surrounding white space (a file's final line feed)
    /// is dropped.
    ///
    /// - Throws: ``InvalidToken`` when the token is empty, or holds characters a header
    ///   cannot carry (control characters, spaces inside it).
    public init(token: String) throws(InvalidToken) {
        let trimmed = token.trimmingWhitespace
        guard !trimmed.isEmpty else { throw InvalidToken(description: "the token is empty") }
        guard trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw InvalidToken(description: "the token must be printable ASCII without spaces")
        }
        self.token = Array(trimmed.utf8)
    }

    /// What a request's headers prove.
    public enum Check: Sendable, Equatable {
        /// The token matches.
        case accepted
        /// No credentials were sent (401).
        case missing
        /// Credentials were sent and are wrong (403).
        case wrong
    }

    /// Checks a request's `Authorization` and `X-API-Key` headers.
    public func check(_ request: OFREPHTTPRequest) -> Check {
        var presented: [Substring] = []
        if let authorization = request.header("authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                presented.append(parts[1])
            } else {
                presented.append("")
            }
        }
        if let key = request.header("x-api-key") { presented.append(Substring(key)) }
        guard !presented.isEmpty else { return .missing }
        return presented.contains(where: matches) ? .accepted : .wrong
    }

    /// Compares in time that depends on the length alone, so response times do not reveal a
    /// matching prefix.
    private func matches(_ candidate: Substring) -> Bool {
        let bytes = Array(candidate.utf8)
        guard bytes.count == token.count else { return false }
        var difference: UInt8 = 0
        for index in bytes.indices { difference |= bytes[index] ^ token[index] }
        return difference == 0
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
