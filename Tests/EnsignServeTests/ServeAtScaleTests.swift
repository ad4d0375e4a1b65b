import EnsignTestSupport
import EnsignTestTraits
import Foundation
import LoopbackLoad
import Testing

/// `ensign serve` with no option given, in front of a crowd: thousands of event streams and
/// slow-header clients at once, from one address (as behind a load balancer), while ordinary
/// evaluations must still be answered and the server must stay within its thread bound.
@Suite("ensign serve at scale", .serialized)
struct ServeAtScaleTests {
    static let flags = """
        flags:
          banner:
            variants: { on: true, off: false }
            defaultVariant: off
            targeting: { if: [{ "==": [{ var: country }, "FR"] }, on, off] }
          color: { default: blue }
        """

    /// The most threads the server may use, whatever it holds (DESIGN.md's bound).
    static let threadBound = 16

    @Test(
        "2,000 event streams all hear a change; beside them and 1,000 slow-header clients 100 evaluations all answer; the slow clients are cut; the server keeps within 16 threads",
        .blocksItsThread)
    func crowd() throws {
        LoopbackCrowd.raiseDescriptorLimit()
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags.yaml", Self.flags)
        let server = try ServeProcess(flags: flagsFile)
        let threadsAtStart = try #require(server.threadCount)
        #expect(threadsAtStart <= Self.threadBound, "\(threadsAtStart) threads at start")

        let streams = LoopbackCrowd()
        try streams.connect(2_000, port: server.port, sending: "GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\n\r\n")
        let connected = try streams.pump(timeout: .seconds(120)) { received, _ in
            received.containsText(": connected")
        }
        #expect(connected == 2_000, "\(connected) of 2,000 streams opened; \(streams.closedCount) closed")

        // Slow-header clients: a request line, then a header byte at a time, never finishing.
        let slow = LoopbackCrowd()
        try slow.connect(
            1_000, port: server.port, sending: "POST /ofrep/v1/evaluate/flags/banner HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        try slow.sendToAll(Array("a".utf8))

        var answered = 0
        var failures: [String] = []
        for index in 0..<100 {
            do {
                let client = try RawHTTPClient(port: UInt16(server.port))
                let response = try client.request(
                    "POST", "/ofrep/v1/evaluate/flags/banner", body: #"{"context":{"country":"FR"}}"#,
                    timeout: .seconds(60))
                if response.status == 200, response.text.contains(#""value":true"#) {
                    answered += 1
                } else {
                    failures.append("evaluation \(index): \(response.status) \(response.text)")
                }
            } catch {
                failures.append("evaluation \(index): \(error)")
            }
            if index % 10 == 0 { try slow.sendToAll(Array("a".utf8)) }
        }
        #expect(answered == 100, "\(failures.prefix(5))")
        let threadsUnderLoad = try #require(server.threadCount)
        #expect(threadsUnderLoad <= Self.threadBound, "\(threadsUnderLoad) threads with 3,000 connections open")

        // One change reaches every stream.
        let set = try BuiltExecutable.run("ensign", ["set", "color", "red", "--socket", server.socket])
        #expect(set.status == 0, "\(set.errors)")
        let heard = try streams.pump(timeout: .seconds(120)) { received, _ in
            received.containsText("refetchEvaluation")
        }
        #expect(heard == 2_000, "\(heard) of 2,000 streams heard the change")

        // The slow clients are cut after the header time-out (10 s), not waited for.
        let cut = try slow.pump(
            timeout: .seconds(120), everyRound: { try slow.sendToAll(Array("a".utf8), atMostEvery: .seconds(1)) },
            until: { _, closed in closed })
        #expect(cut == 1_000, "\(cut) of 1,000 slow-header clients cut")
        #expect(try #require(server.threadCount) <= Self.threadBound)

        let metrics = try RawHTTPClient(port: UInt16(server.managementPort)).request("GET", "/metrics")
        #expect(metrics.text.contains(#"ensign_serve_connections{state="streaming"} 2000"#))
        #expect(metrics.text.contains(#"ensign_serve_closed_connections_total{reason="header_timeout"} 1000"#))
        #expect(server.stop() == 0)
    }
}
