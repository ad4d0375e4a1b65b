import EnsignHTTP
import EnsignTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test's HTTP client: raw bytes out (so a test can send anything, malformed or slow), and
/// the response read back byte for byte by ``HTTPResponseReader`` (test code: the product's
/// client leaves HTTP to libcurl), over a loopback TCP connection.
final class RawHTTPClient: HTTPByteSource {
    /// One response.
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: UInt16) throws {
        // The descriptor is stored only once connected. Stored before, a failed connect would
        // close it twice: here, and again in `deinit`, which runs when a class's init throws
        // after setting every stored property. In between, another test's libmicrohttpd server
        // had been given the same number for its wake-up descriptor; the second close closed
        // it, and that server aborted when it stopped.
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = Loopback.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw Failure(description: "connect to port \(port): errno \(error)")
        }
        socket = descriptor
    }

    deinit { close(socket) }

    /// Sends bytes as they are.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends bytes as they are.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// Sends a request with a body (Content-Length set) and reads the response.
    func request(
        _ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:],
        timeout: Duration = .seconds(10)
    ) throws -> Response {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        try send(text)
        return try readResponse(method: method, timeout: timeout)
    }

    /// Reads one response.
    func readResponse(method: String = "POST", timeout: Duration = .seconds(10)) throws -> Response {
        var body: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        let head = try HTTPResponseReader.read(
            from: self, method: method, headDeadline: deadline, bodyWait: .until(deadline), onHead: { _ in true },
            onBody: {
                body += $0
                return true
            })
        return Response(status: head.status, headers: head.headers, body: body)
    }

    /// Reads a streamed response's head, then its body until `isDone` holds for what arrived
    /// (true) or `timeout` passes (false).
    func readStream(timeout: Duration, until isDone: (String) -> Bool) throws -> (
        status: Int, isDone: Bool, text: String
    ) {
        var text = ""
        var done = false
        let deadline = ContinuousClock.now + timeout
        let head = try HTTPResponseReader.read(
            from: self, method: "GET", headDeadline: deadline, bodyWait: .until(deadline), onHead: { $0.status == 200 },
            onBody: { piece in
                text += String(decoding: piece, as: UTF8.self)
                done = isDone(text)
                return !done
            })
        return (head.status, done, text)
    }

    /// Whether the server closed the connection within `timeout` (a read returns end of file).
    func isClosedByServer(within timeout: Duration) -> Bool {
        var buffer: [UInt8] = []
        while true {
            do {
                if try receive(into: &buffer, deadline: ContinuousClock.now + timeout, while: "waiting for close") == 0
                {
                    return true
                }
            } catch {
                return false
            }
        }
    }

    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant?, while activity: String)
        throws(HTTPError) -> Int
    {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let remaining = deadline.map { max(.zero, ContinuousClock.now.duration(to: $0)) } ?? .seconds(60)
        let milliseconds = Int32(
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { throw .timedOut(activity) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return 0 }
            throw .connectionClosed("recv: errno \(errno)")
        }
        buffer += chunk.prefix(count)
        return count
    }
}
