import Ensign
import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import EnsignHTTP

@Suite("HTTP client on libcurl")
struct HTTPConnectionTests {
    private func connection(_ server: ScriptedHTTPServer, cancellation: Cancellation? = nil) -> HTTPConnection {
        HTTPConnection(endpoint: server.endpoint, dialTimeout: .seconds(2), cancellation: cancellation)
    }

    @Test("A Content-Length response is read whole, and the request carries Host and Content-Length")
    func contentLength() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}")
        }
        let response = try connection(server).send(
            HTTPRequest(path: "/v3/kv/range", body: Array("{}".utf8)), timeout: .seconds(5))
        server.join()
        #expect(response.status == 200)
        #expect(response.head.header("content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"ok\":true}")
        let request = try #require(server.request.withLock { $0 })
        #expect(request.hasPrefix("POST /v3/kv/range HTTP/1.1\r\n"))
        #expect(request.contains("Host: 127.0.0.1:\(server.port)\r\n"))
        #expect(request.contains("Content-Length: 2\r\n"))
        #expect(request.hasSuffix("\r\n\r\n{}"))
    }

    @Test("A chunked response that arrives one byte at a time is decoded")
    func chunkedByteByByte() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.writeByteByByte(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n")
        }
        let response = try connection(server).send(HTTPRequest(path: "/"), timeout: .seconds(5))
        server.join()
        #expect(String(decoding: response.body, as: UTF8.self) == "hello, world")
    }

    @Test("A streamed body is delivered object by object as it arrives, not when it ends")
    func incrementalStream() throws {
        let firstSeen = LockedCondition(false)
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            connection.write("a\r\n{\"n\": 1}\n\r\n")
            // The second object is only sent once the client has seen the first.
            _ = firstSeen.wait(until: { $0 }, timeout: .seconds(5))
            connection.write("4\r\n{\"n\"\r\n")
            connection.write("6\r\n: 2}\n\r\n0\r\n\r\n")
        }
        var splitter = JSONStreamSplitter()
        var objects: [String] = []
        try connection(server).stream(
            HTTPRequest(path: "/v3/watch"), headTimeout: .seconds(5), idleTimeout: .seconds(5),
            onHead: { head in #expect(head.status == 200) },
            onBody: { bytes in
                for object in try splitter.feed(bytes) {
                    objects.append(String(decoding: object, as: UTF8.self))
                    firstSeen.update { $0 = true }
                }
                return true
            })
        server.join()
        #expect(objects == ["{\"n\": 1}", "{\"n\": 2}"])
    }

    @Test("A server that never answers makes the request time out on time", .blocksItsThread)
    func requestTimeout() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.waitForClientToClose()
        }
        let start = ContinuousClock.now
        #expect(throws: HTTPError.timedOut("waiting for the response")) {
            _ = try connection(server).send(HTTPRequest(path: "/"), timeout: .milliseconds(300))
        }
        let elapsed = ContinuousClock.now - start
        server.join()
        #expect(elapsed >= .milliseconds(290) && elapsed < .seconds(3), "took \(elapsed)")
    }

    @Test("A stream that goes quiet longer than the idle timeout fails")
    func idleTimeout() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{}\n\r\n")
            connection.waitForClientToClose()
        }
        var pieces = 0
        #expect(throws: HTTPError.timedOut("reading the body")) {
            try connection(server).stream(
                HTTPRequest(path: "/"), headTimeout: .seconds(5), idleTimeout: .milliseconds(200), onHead: { _ in },
                onBody: { _ in
                    pieces += 1
                    return true
                })
        }
        server.join()
        #expect(pieces == 1)
    }

    @Test("A quiet stream whose server stops answering ends when a liveness check goes unanswered")
    func livenessCheck() throws {
        // The server answers the stream, then falls silent; the check's connection is taken
        // by the kernel's backlog and never answered, as a frozen process's would be.
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{}\n\r\n")
            connection.waitForClientToClose()
        }
        let check = HTTPConnection.LivenessCheck(
            interval: .milliseconds(100), timeout: .milliseconds(300), request: HTTPRequest(path: "/health"))
        var pieces = 0
        let start = ContinuousClock.now
        #expect {
            try connection(server).stream(
                HTTPRequest(path: "/v3/watch"), headTimeout: .seconds(5), idleTimeout: nil, livenessCheck: check,
                onHead: { _ in },
                onBody: { _ in
                    pieces += 1
                    return true
                })
        } throws: { error in
            "\(error)".contains("checking that the server is alive")
        }
        let elapsed = ContinuousClock.now - start
        server.join()
        #expect(pieces == 1)
        #expect(elapsed >= .milliseconds(390) && elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test("Cancelling interrupts a blocked stream read at once")
    func cancellation() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{}\n\r\n")
            connection.waitForClientToClose()
        }
        let cancellation = Cancellation()
        let cancelledAt = LockedCondition<ContinuousClock.Instant?>(nil)
        let client = connection(server, cancellation: cancellation)
        #expect(throws: HTTPError.cancelled) {
            try client.stream(
                HTTPRequest(path: "/"), headTimeout: .seconds(5), idleTimeout: nil, onHead: { _ in },
                onBody: { _ in
                    // Cancel from another thread while the client waits for more.
                    Thread.detachNewThread {
                        usleep(50_000)
                        cancelledAt.update { $0 = .now }
                        cancellation.cancel()
                    }
                    return true
                })
        }
        let returnedAt = ContinuousClock.now
        server.join()
        let cancelled = try #require(cancelledAt.withLock { $0 })
        #expect(returnedAt - cancelled < .milliseconds(500))
    }

    @Test("A body cut short by the server is an error, not a short body")
    func truncatedBody() throws {
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial\":")
        }
        #expect(throws: HTTPError.self) {
            _ = try connection(server).send(HTTPRequest(path: "/"), timeout: .seconds(5))
        }
        server.join()
    }

    @Test("A header value with a line break is refused before anything is sent")
    func headerInjection() throws {
        let client = HTTPConnection(endpoint: try HTTPEndpoint("http://127.0.0.1:1"), dialTimeout: .seconds(2))
        for value in ["a\r\nInjected: 1", "a\nb", "a\u{0}b"] {
            #expect {
                _ = try client.send(HTTPRequest(path: "/", headers: [("X-Token", value)]), timeout: .seconds(2))
            } throws: { error in
                guard case .invalidRequest(let reason) = error as? HTTPError else { return false }
                return reason.contains("X-Token")
            }
        }
    }

    @Test("A refused connection fails at once")
    func refused() throws {
        let port = try Loopback.freePort()
        let client = HTTPConnection(endpoint: try HTTPEndpoint("http://127.0.0.1:\(port)"), dialTimeout: .seconds(2))
        let start = ContinuousClock.now
        #expect {
            _ = try client.send(HTTPRequest(path: "/"), timeout: .seconds(5))
        } throws: { error in
            guard case .connectFailed = error as? HTTPError else { return false }
            return true
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}

@Suite("Endpoint URLs")
struct HTTPEndpointTests {
    @Test("http URLs parse: host, port, IPv6, base path, default port")
    func parses() throws {
        let plain = try HTTPEndpoint("http://127.0.0.1:2379")
        #expect(plain.host == "127.0.0.1" && plain.port == 2379 && plain.basePath == "")
        let named = try HTTPEndpoint(" http://etcd-0.etcd:2379/ ")
        #expect(named.host == "etcd-0.etcd" && named.hostHeader == "etcd-0.etcd:2379")
        let ipv6 = try HTTPEndpoint("http://[::1]:2379/gateway/")
        #expect(
            ipv6.host == "::1" && ipv6.port == 2379 && ipv6.basePath == "/gateway" && ipv6.hostHeader == "[::1]:2379")
        #expect(try HTTPEndpoint("http://localhost").port == 80)
    }

    @Test("https is refused, saying why, only where the transport has no TLS")
    func refusesHTTPSWithoutTLS() throws {
        #expect(try HTTPEndpoint("https://10.0.0.1:2379").scheme == .https)
        #expect {
            _ = try HTTPEndpoint("https://10.0.0.1:2379", allowingTLS: false)
        } throws: { error in
            "\(error)".contains("https needs a transport with TLS")
        }
    }

    @Test("https parses only for a transport with TLS: port 443 by default, its origin, and same-origin checks")
    func parsesHTTPSWhenAllowed() throws {
        let secure = try HTTPEndpoint("https://flags.example.com/api/", allowingTLS: true)
        #expect(secure.scheme == .https && secure.port == 443 && secure.basePath == "/api")
        #expect(secure.hostHeader == "flags.example.com" && secure.origin == "https://flags.example.com")
        let other = try HTTPEndpoint("https://FLAGS.example.com:443", allowingTLS: true)
        #expect(secure.isSameOrigin(as: other))
        #expect(!secure.isSameOrigin(as: try HTTPEndpoint("http://flags.example.com:443")))
        #expect(!secure.isSameOrigin(as: try HTTPEndpoint("https://flags.example.com:8443", allowingTLS: true)))
        #expect(try HTTPEndpoint("http://x:8080", allowingTLS: true).origin == "http://x:8080")
        #expect(throws: HTTPError.self) { _ = try HTTPEndpoint("ftp://x:1", allowingTLS: true) }
    }

    @Test(
        "An https endpoint's request never goes out in clear: a plain server sees a TLS hello, the client a TLS error")
    func httpsNeverInClear() throws {
        // The server reads the first bytes and hangs up, as a plain HTTP server does with a TLS hello.
        let server = try ScriptedHTTPServer { connection in
            connection.readFirstBytes()
        }
        let secure = try HTTPEndpoint("https://127.0.0.1:\(server.port)")
        #expect {
            _ = try HTTPConnection(endpoint: secure, dialTimeout: .seconds(5)).send(
                HTTPRequest(path: "/v3/kv/put", body: Array("secret".utf8)), timeout: .seconds(5))
        } throws: { error in
            guard case .tls = error as? HTTPError else { return false }
            return true
        }
        server.join()
        let received = try #require(server.request.withLock { $0 })
        #expect(!received.contains("secret") && !received.contains("POST"), "the server saw \(received.prefix(40))")
    }

    @Test(
        "Malformed URLs are refused",
        arguments: ["127.0.0.1:2379", "ftp://x:1", "http://:2379", "http://x:99999", "http://u:p@x:1"])
    func refusesMalformed(url: String) {
        #expect(throws: HTTPError.self) { _ = try HTTPEndpoint(url) }
    }
}
