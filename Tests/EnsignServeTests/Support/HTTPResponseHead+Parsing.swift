import EnsignHTTP

/// Reading a response head from raw bytes: the server tests' raw client reads what
/// libmicrohttpd sends byte for byte, where the product's client leaves HTTP to libcurl.
extension HTTPResponseHead {
    /// Parses the bytes before the blank line: `HTTP/1.1 200 OK`, then `Name: value` lines.
    init(parsing bytes: ArraySlice<UInt8>) throws(HTTPError) {
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
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("invalid header line '\(line.prefix(80))'")
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces))
        }
        self.init(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    /// How the body is delimited.
    func bodyFraming(forMethod method: String) throws(HTTPError) -> BodyFraming {
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
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }
}
