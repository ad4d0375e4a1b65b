#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The benchmark's load generator's connection: one keep-alive HTTP/1.1 connection to a
/// loopback port, sending a prepared request and reading a `Content-Length` response (what
/// `ensign serve` sends for evaluations), or the pieces of an event stream.
///
/// Written for the benchmark, so that it measures the server and not a general client:
/// one buffer, no header dictionary, no allocation beyond the received bytes.
final class LoopbackHTTPClient {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// The head of the last response read by ``exchange(_:)``.
    private(set) var lastHead = ""
    /// The body of the last response read by ``exchange(_:)``, kept only when asked for.
    private(set) var lastBody: [UInt8] = []
    /// Whether ``exchange(_:)`` keeps ``lastBody`` (off while timing: it would copy each body).
    var keepsBody = false

    init(port: UInt16) throws {
        // Stored only once connected: stored before, a failed connect would close it here and
        // again in `deinit`, which runs when a class's init throws after setting every stored
        // property (and the second close may hit a descriptor another thread just opened).
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchmarkFailure("socket() failed") }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw BenchmarkFailure("cannot connect to 127.0.0.1:\(port)")
        }
        socket = descriptor
    }

    deinit { close(socket) }

    /// A GET request's bytes, prepared once.
    static func get(_ path: String) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    }

    /// A POST request's bytes, prepared once.
    static func post(_ path: String, body: String, headers: String = "") -> [UInt8] {
        Array(
            ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(headers)"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
    }

    func send(_ request: [UInt8]) throws {
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes {
                #if canImport(Glibc)
                    Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(socket, $0.baseAddress, $0.count, 0)
                #endif
            }
            guard count > 0 else { throw BenchmarkFailure("send failed") }
            sent += count
        }
    }

    /// Sends `request` and reads the response; returns its status.
    func exchange(_ request: [UInt8]) throws -> Int {
        try send(request)
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                lastHead = head
                let status = Int(head.dropFirst(9).prefix(3)) ?? 0
                let length = Self.contentLength(in: head)
                while buffer.count < end + 4 + length { try receive() }
                if keepsBody { lastBody = Array(buffer[(end + 4)..<(end + 4 + length)]) }
                buffer.removeFirst(end + 4 + length)
                return status
            }
            try receive()
        }
    }

    /// Reads until the bytes received contain `marker`, and drops them.
    func read(until marker: String) throws {
        let needle = Array(marker.utf8)
        while true {
            if let range = firstRange(of: needle) {
                buffer.removeFirst(range.upperBound)
                return
            }
            try receive()
        }
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchmarkFailure("the server closed the connection or timed out") }
        buffer += chunk.prefix(count)
    }

    private func headEnd() -> Int? { firstRange(of: [13, 10, 13, 10])?.lowerBound }

    private func firstRange(of needle: [UInt8]) -> Range<Int>? {
        guard buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if buffer[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
        }
        return nil
    }

    private static func contentLength(in head: String) -> Int {
        Int(header("content-length", in: head) ?? "") ?? 0
    }

    /// The value of the header field `name` (lower case) in a response head.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix(name + ":") {
            return String(line.dropFirst(name.count + 1).trimmingPrefix(" "))
        }
        return nil
    }
}
