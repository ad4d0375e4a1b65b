import Ensign
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import EnsignControl

@Suite("Control server robustness: bad input, abrupt clients, limits, slow watchers")
struct RobustnessTests {
    @Test("Each kind of bad line gets an error reply on a connection that keeps working")
    func badLinesThenValidRequest() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        let cases: [(line: String, code: String)] = [
            ("{\"id\":1,\"op\":\"list\"", "BAD_REQUEST"),  // malformed JSON
            ("{\"id\":2,\"op\":\"frobnicate\"}", "UNKNOWN_OP"),
            ("{\"id\":3,\"op\":\"set\",\"key\":7,\"value\":1}", "BAD_REQUEST"),  // wrong type
            ("{\"id\":4,\"op\":\"toggle\",\"key\":\"beneficiaries.pageSize\"}", "INVALID_VALUE"),
            ("\"just a string\"", "BAD_REQUEST"),
            ("{\"id\":{\"nested\":1},\"op\":\"list\"}", "BAD_REQUEST"),
        ]
        for (line, code) in cases {
            let reply = try raw.request(line)
            #expect(reply?["ok"] == false, "\(line)")
            #expect(reply?["error"]?["code"] == .string(code), "\(line)")
        }
        let reply = try raw.request(#"{"id":99,"op":"get","key":"beneficiaries.pageSize"}"#)
        #expect(reply?["id"] == 99)
        #expect(reply?["result"]?["value"] == 30)
    }

    @Test("Binary garbage gets error replies or a clean close, and the server answers the next client")
    func binaryGarbage() throws {
        let harness = try ServerHarness()
        var generator = SplitMix64(seed: 7)
        for _ in 0..<5 {
            let raw = try harness.raw()
            let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            try raw.send(garbage + [0x0A])
            let reply = try raw.receive()
            #expect(reply?["ok"] == false)
            raw.close()
        }
        #expect(try harness.client().status().server.app == "testapp")
    }

    @Test(
        "A line over 64 KiB, still without its newline or complete in one piece, gets TOO_LARGE and the connection is closed",
        arguments: [(length: ControlProtocol.maximumLineLength + 4096, hasNewline: false), (100 * 1024, true)])
    func oversizeLine(length: Int, hasNewline: Bool) throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        try raw.send([UInt8](repeating: 0x61, count: length) + (hasNewline ? [0x0A] : []))
        #expect(try raw.receive()?["error"]?["code"] == "TOO_LARGE")
        #expect(raw.isClosedByServer())
        #expect(try harness.client().get("beneficiaries.pageSize").value == 30)
    }

    @Test("A truncated line followed by a disconnect, and a client that leaves mid-reply, harm nothing")
    func abruptDisconnects() throws {
        let harness = try ServerHarness()
        let truncated = try harness.raw()
        try truncated.send(Array(#"{"id":1,"op":"se"#.utf8))
        truncated.close()
        let leaver = try harness.raw()
        for id in 0..<200 { try leaver.send(line: #"{"id":\#(id),"op":"list"}"#) }
        leaver.close()
        #expect(waitUntil("the server to hold 0 connections") { harness.server.connectionCount == 0 })
        #expect(try harness.client().toggle("beneficiaries.showPendingList").value == true)
    }

    @Test("A last line without a newline is still answered when the client closes its side")
    func halfClose() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        try raw.send(Array(#"{"id":5,"op":"status"}"#.utf8))
        shutdown(raw.channel.descriptor, Int32(SHUT_WR))
        #expect(try raw.receive()?["id"] == 5)
        #expect(raw.isClosedByServer())
    }

    @Test("Connections past the limit get BUSY and are closed; a freed slot is reused")
    func tooManyConnections() throws {
        let harness = try ServerHarness { $0.maximumConnections = 3 }
        let open = try (0..<3).map { _ in try harness.raw() }
        for connection in open { #expect(try connection.request(#"{"id":1,"op":"status"}"#)?["ok"] == true) }
        let extra = try harness.raw()
        #expect(try extra.receive()?["error"]?["code"] == "BUSY")
        #expect(extra.isClosedByServer())
        #expect(harness.logged.values.contains { $0.contains("maximumConnections") })
        open[0].close()
        #expect(waitUntil("the server to hold 2 connections") { harness.server.connectionCount == 2 })
        #expect(try harness.raw().request(#"{"id":2,"op":"status"}"#)?["ok"] == true)
    }

    @Test("An idle connection is told and closed; a watching one is exempt", .blocksItsThread)
    func idleTimeout() throws {
        let harness = try ServerHarness { $0.idleTimeout = .milliseconds(200) }
        let watcher = try harness.raw()
        #expect(try watcher.request(#"{"id":1,"op":"watch"}"#)?["ok"] == true)
        let idle = try harness.raw()
        #expect(try idle.receive()?["error"]?["code"] == "IDLE_TIMEOUT")
        #expect(idle.isClosedByServer())
        try harness.context.setOverride(.pageSize, to: 90)
        #expect(try watcher.receive()?["event"] == "change")
    }

    @Test("A watcher that never reads does not slow the app's writes or other clients; it is told what it missed")
    func stalledWatcher() throws {
        let harness = try ServerHarness { $0.watchQueueCapacity = 64 }
        let stalled = try harness.raw()
        try stalled.send(line: #"{"id":"w","op":"watch"}"#)
        #expect(waitUntil("the server to hold 1 connection") { harness.server.connectionCount == 1 })
        let other = try harness.client()
        let clock = ContinuousClock()
        var slowest = Duration.zero
        let total = clock.measure {
            for index in 0..<5000 {
                let started = clock.now
                try? harness.context.setOverride(.pageSize, to: 5 + index % 90)
                slowest = max(slowest, clock.now - started)
            }
        }
        // Blocking on the stalled client would hang here forever; a generous bound catches
        // a write that waits for a client at all. The single slowest write gets 5 s: a loaded
        // 2-core machine once took 1.4 s for one (scheduling), while a write that waited for the
        // stalled client would wait for good.
        #expect(total < .seconds(30))
        #expect(slowest < .seconds(5))
        #expect(try other.get("beneficiaries.pageSize").value == .int(5 + 4999 % 90))
        var dropped = 0
        var lastValue: JSONValue?
        while dropped == 0 || lastValue != .int(5 + 4999 % 90) {
            guard let event = try stalled.receive(timeout: .seconds(10)) else { break }
            if event["event"] == "dropped" { dropped += event["count"]?.intValue ?? 0 }
            if event["event"] == "change" { lastValue = event["changes"]?.arrayValue?.last?["new"] }
        }
        #expect(dropped > 0)
        #expect(lastValue == .int(5 + 4999 % 90))
    }
}
