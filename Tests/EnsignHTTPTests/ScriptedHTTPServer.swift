import Ensign
import EnsignSupport
import EnsignTestSupport
import Foundation

@testable import EnsignHTTP

/// A one-connection HTTP server for client tests: it accepts one connection on loopback and
/// runs a script against it (read the request, write bytes, pause, wait for the test), then
/// closes it.
final class ScriptedHTTPServer: Sendable {
    let port: Int
    private let thread: JoinableThread
    /// The request the client sent, once read.
    let request = LockedCondition<String?>(nil)

    init(_ script: @escaping @Sendable (ScriptedConnection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Loopback.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else { throw ScriptedServerError() }
        port = Int(UInt16(bigEndian: address.sin_port))
        let request = self.request
        thread = JoinableThread(name: "scripted-http") {
            defer { close(listener) }
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, 10_000) == 1 else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let connection = ScriptedConnection(descriptor: client, request: request)
            script(connection)
            close(client)
        }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    var endpoint: HTTPEndpoint { try! HTTPEndpoint(url) }

    /// Waits for the script to finish.
    func join() { thread.join() }
}

/// The server side of one scripted connection.
struct ScriptedConnection: Sendable {
    let descriptor: Int32
    let request: LockedCondition<String?>

    /// Reads the request head and its Content-Length body, and records it.
    func readRequest() {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: bytes, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: headEnd.upperBound) >= length {
                    request.update { $0 = text }
                    return
                }
            }
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            bytes += buffer[0..<count]
        }
    }

    /// Reads what arrives first, whatever it is (a TLS hello), and keeps it as the request.
    func readFirstBytes() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        request.update { $0 = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) }
    }

    /// Writes `text` at once.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes `text` one byte per send, with TCP_NODELAY, so the client sees many small reads.
    func writeByteByByte(_ text: String) {
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        for byte in text.utf8 {
            var value = byte
            _ = send(descriptor, &value, 1, Int32(MSG_NOSIGNAL))
        }
    }

    /// Waits until the client closes the connection (or `timeout` passes).
    func waitForClientToClose(timeout: Duration = .seconds(10)) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, 100) >= 0 else { return }
            if descriptors[0].revents != 0, read(descriptor, &buffer, buffer.count) <= 0 { return }
        }
    }
}

/// The scripted server could not listen on loopback.
struct ScriptedServerError: Error, CustomStringConvertible {
    var description: String { "the scripted server cannot listen" }
}
