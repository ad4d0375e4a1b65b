import EnsignTestSupport
import Foundation
import Testing

/// `ensign serve` as a process: its token from the environment, a clean stop on SIGTERM, and
/// usage errors.
@Suite("ensign serve, the command")
struct ServeCommandTests {
    static let flags = """
        flags:
          banner: { default: true }
        """

    @Test("A token from ENSIGN_SERVE_TOKEN is required; SIGTERM stops the server cleanly with status 0")
    func tokenAndCleanStop() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("flags/banner.yaml", Self.flags)
        let server = try ServeProcess(
            flags: URL(fileURLWithPath: file).deletingLastPathComponent().path,
            environment: ["ENSIGN_SERVE_TOKEN": "s3cret\n"])
        let client = try RawHTTPClient(port: UInt16(server.port))
        #expect(try client.request("POST", "/ofrep/v1/evaluate/flags/banner", body: "{}").status == 401)
        let accepted = try client.request(
            "POST", "/ofrep/v1/evaluate/flags/banner", body: "{}", headers: ["Authorization": "Bearer s3cret"])
        #expect(accepted.status == 200)
        #expect(accepted.text.contains(#""value":true"#))
        server.process.terminate()
        #expect(BuiltExecutable.waitForExit(of: server.process, timeout: .seconds(5)))
        #expect(server.process.terminationStatus == 0)
        #expect(throws: (any Error).self) { try RawHTTPClient(port: UInt16(server.port)) }
    }

    @Test(
        "SIGTERM drains: an open stream gets a retry and ends, a request in flight is answered, new connections are refused, exit 0",
        .blocksItsThread)
    func sigtermDrains() throws {
        let server = try ServeProcess(serving: Self.flags)
        // A request whose body is not all there yet: in flight when the signal comes.
        let inFlight = try RawHTTPClient(port: UInt16(server.port))
        try inFlight.send("POST /ofrep/v1/evaluate/flags/banner HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{")
        // Busy: its header section read (the scrape that asks is the other busy connection).
        #expect(
            waitUntil("the request's header section to be read", timeout: .seconds(30)) {
                let metrics = try? RawHTTPClient(port: UInt16(server.port)).request("GET", "/metrics").text
                return metrics?.contains(#"ensign_serve_connections{state="busy"} 2"#) == true
            })
        let stream = try RawHTTPClient(port: UInt16(server.port))
        try stream.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\n\r\n")
        var signalled = false
        let ending = try stream.readStream(timeout: .seconds(60)) { text in
            if !signalled, text.contains(": connected") {
                signalled = true
                kill(server.process.processIdentifier, SIGTERM)
            }
            return text.contains("retry:")
        }
        #expect(ending.isDone, "\(ending.text)")
        #expect(stream.isClosedByServer(within: .seconds(30)))
        try inFlight.send("}")
        let answer = try inFlight.readResponse(timeout: .seconds(30))
        #expect(answer.status == 200)
        #expect(BuiltExecutable.waitForExit(of: server.process, timeout: .seconds(30)))
        #expect(server.process.terminationStatus == 0)
        #expect(server.output.contains("draining"))
        #expect(throws: (any Error).self) { try RawHTTPClient(port: UInt16(server.port)) }
    }

    @Test("ensign status on a server shows its limits and what it holds")
    func statusShowsTheLimits() throws {
        let server = try ServeProcess(serving: Self.flags, arguments: ["--connection-limit", "500"])
        let status = try Self.status(of: server)
        #expect(status.contains("serve limits"))
        #expect(status.contains("500 connections (375 event streams)"))
        #expect(status.contains("serve open"))
    }

    static func status(of server: ServeProcess) throws -> String {
        let result = try BuiltExecutable.run("ensign", ["status", "--socket", server.socket])
        return result.output
    }

    @Test("A bad --listen is a usage error; an unloadable --flags is status 1")
    func usageErrors() throws {
        let badListen = try BuiltExecutable.run("ensign", ["serve", "--flags", "flags", "--listen", "nowhere"])
        #expect(badListen.status == 2)
        #expect(badListen.errors.contains("HOST:PORT"))
        let missing = try BuiltExecutable.run(
            "ensign", ["serve", "--flags", "/nonexistent/flags", "--listen", "127.0.0.1:0"], timeout: .seconds(20))
        #expect(missing.status == 1)
    }
}
