import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// `ensign serve` with no option given, in front of a crowd: thousands of event streams and
/// slow-header clients at once, from one address (as behind a load balancer), while ordinary
/// evaluations must still be answered and the server must stay within its thread bound.
///
/// The crowd is a process of its own (`ServeCrowdProbe`): Foundation's `Process`, with which
/// this process starts others, overruns a buffer while it lists `/proc/self/fd` when thousands
/// of descriptors are open, so the crowd's sockets must never be this process's.
@Suite("ensign serve at scale", .serialized)
struct ServeAtScaleTests {
    /// The most threads the server may use, whatever it holds (DESIGN.md's bound).
    static let threadBound = 16

    @Test(
        "2,000 event streams all hear a change; beside them and 1,000 slow-header clients 100 evaluations all answer; the slow clients are cut; the server keeps within 16 threads",
        .blocksItsThread)
    func crowd() throws {
        let server = try ServeProcess(serving: OFREPServerTests.definitions)
        let threadsAtStart = try #require(server.threadCount)
        #expect(threadsAtStart <= Self.threadBound, "\(threadsAtStart) threads at start")

        let probe = try CrowdProbe(port: server.port, streams: 2_000, slow: 1_000, evaluations: 100)
        #expect(try probe.value(of: "streams-open") == 2_000)
        #expect(try probe.value(of: "slow-open") == 1_000)
        #expect(try probe.value(of: "evaluations-answered") == 100)
        _ = try probe.line(startingWith: "ready")
        let threadsUnderLoad = try #require(server.threadCount)
        #expect(threadsUnderLoad <= Self.threadBound, "\(threadsUnderLoad) threads with 3,000 connections open")

        // One change reaches every stream.
        let set = try BuiltExecutable.run("ensign", ["set", "color", "red", "--socket", server.socket])
        #expect(set.status == 0, "\(set.errors)")
        try probe.go()
        #expect(try probe.value(of: "streams-heard") == 2_000)
        // The slow clients are cut after the header time-out (10 s), not waited for.
        #expect(try probe.value(of: "slow-cut") == 1_000)
        #expect(try #require(server.threadCount) <= Self.threadBound)

        let metrics = try RawHTTPClient(port: UInt16(server.managementPort)).request("GET", "/metrics")
        #expect(metrics.text.contains(#"ensign_serve_closed_connections_total{reason="header_timeout"} 1000"#))
        #expect(metrics.text.contains(#"ensign_serve_requests_total{endpoint="evaluate_flag",status="200"} 100"#))
        #expect(server.stop() == 0)
    }
}

/// `ServeCrowdProbe` running against a server: its output read line by line.
final class CrowdProbe {
    private let process: Process
    private let input: Pipe
    private let output: FileHandle
    private var buffer = Data()

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    init(port: Int, streams: Int, slow: Int, evaluations: Int) throws {
        process = Process()
        process.executableURL = BuiltExecutable.url(named: "ServeCrowdProbe")
        process.arguments = [String(port), String(streams), String(slow), String(evaluations)]
        input = Pipe()
        let pipe = Pipe()
        process.standardInput = input
        process.standardOutput = pipe
        try process.run()
        output = pipe.fileHandleForReading
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(5))
    }

    /// The next line, which must start with `prefix` (each step has two minutes).
    func line(startingWith prefix: String) throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                guard line.hasPrefix(prefix) else {
                    throw Failed(description: "the probe said '\(line)', not '\(prefix) …'")
                }
                return line
            }
            let more = output.availableData
            guard !more.isEmpty else { throw Failed(description: "the probe ended before '\(prefix)'") }
            buffer += more
        }
    }

    /// The number after `name` on the next line.
    func value(of name: String) throws -> Int? {
        Int(try line(startingWith: name + " ").dropFirst(name.count + 1))
    }

    /// Tells the probe the change has been made.
    func go() throws {
        try input.fileHandleForWriting.write(contentsOf: Data("changed\n".utf8))
    }
}
