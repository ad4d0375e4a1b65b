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
        let server = try OpenFeatureClientTests.Server(
            flags: URL(fileURLWithPath: file).deletingLastPathComponent(),
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
