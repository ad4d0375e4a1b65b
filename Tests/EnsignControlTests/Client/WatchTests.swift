import Ensign
import EnsignTestSupport
import Testing

@testable import EnsignControl

@Suite("Watching a running app's changes")
struct WatchTests {
    @Test("A watch receives the app's changes to its keys only, with the cause")
    func watchesItsKeys() throws {
        let harness = try ServerHarness()
        let watch = try harness.client().watch(keys: ["beneficiaries.pageSize"])
        #expect(watch.keys == ["beneficiaries.pageSize"])
        try harness.context.setOverride(.showPendingList, to: true)
        try harness.context.setOverride(.pageSize, to: 70)
        guard case .change(_, let report)? = try watch.next(timeout: .seconds(10)) else {
            Issue.record("no change event")
            return
        }
        #expect(report.changes.map(\.key) == ["beneficiaries.pageSize"])
        #expect(report.changes.first?.oldValue == 30)
        #expect(report.changes.first?.newValue == 70)
        #expect(report.cause.description == "override by code")
        #expect(try watch.next(timeout: .milliseconds(100)) == nil)
    }

    @Test("A watch without keys sees every change, including writes from another client")
    func watchesEverything() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        let watch = try client.watch()
        #expect(watch.keys == nil)
        try client.toggle("beneficiaries.showPendingList")
        guard case .change(_, let report)? = try watch.next(timeout: .seconds(10)) else {
            Issue.record("no change event")
            return
        }
        #expect(report.changes.map(\.key) == ["beneficiaries.showPendingList"])
        #expect(report.cause.actor == "cli")
    }

    @Test("A watcher that stops reading through 3,000 changes gets the rest, or a dropped notice, once it reads again")
    func slowWatcherCatchesUp() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        #expect(try raw.request(#"{"id":1,"op":"watch","keys":["beneficiaries.pageSize"]}"#)?["ok"] == true)
        // Far more events than the socket, the server's output and the watch queue together hold.
        for change in 0..<3_000 { try harness.context.setOverride(.pageSize, to: 5 + change % 90) }
        let last = 99  // a value no earlier change had
        try harness.context.setOverride(.pageSize, to: last)
        var events = 0
        var dropped = 0
        var lastValue: JSONValue?
        // Nothing else is sent: the server must go on writing as the client drains its side.
        while lastValue != .int(last), let event = try raw.receive(timeout: .seconds(10)) {
            events += 1
            if event["event"] == "dropped" { dropped += event["count"]?.intValue ?? 0 }
            if let change = event["changes"]?.arrayValue?.last { lastValue = change["new"] }
        }
        #expect(
            lastValue == .int(last),
            "received \(events) events (\(dropped) dropped), the last value \(lastValue?.jsonText ?? "none")")
        #expect(dropped > 0, "the queue overflowed, so the client was told how many changes it missed")
    }

    @Test("Watching an undefined key is NOT_FOUND")
    func watchUndefined() throws {
        let harness = try ServerHarness()
        expectRefusal(.notFound) { try harness.client().watch(keys: ["nowhere.defined"]) }
    }

    @Test("stop ends the events on that connection, which keeps answering requests")
    func stop() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        #expect(try raw.request(#"{"id":1,"op":"watch"}"#)?["ok"] == true)
        try harness.context.setOverride(.pageSize, to: 55)
        #expect(try raw.receive()?["event"] == "change")
        #expect(try raw.request(#"{"id":2,"op":"stop"}"#)?["result"]?["stopped"] == true)
        try harness.context.setOverride(.pageSize, to: 56)
        let reply = try raw.request(#"{"id":3,"op":"get","key":"beneficiaries.pageSize"}"#)
        #expect(reply?["id"] == 3)
        #expect(reply?["result"]?["value"] == 56)
    }

    @Test("events() delivers changes as an asynchronous sequence and ends when closed")
    func asyncEvents() async throws {
        let harness = try ServerHarness()
        let watch = try harness.client().watch(keys: ["beneficiaries.showPendingList"])
        let events = watch.events()
        try harness.context.setOverride(.showPendingList, to: true)
        var iterator = events.makeAsyncIterator()
        let first = try await iterator.next()
        guard case .change(_, let report)? = first else {
            Issue.record("no change event")
            return
        }
        #expect(report.changes.first?.newValue == true)
        watch.close()
        #expect(try await iterator.next() == nil)
    }

    @Test("A watcher that leaves is forgotten: the app's observer is removed with the last watcher")
    func watcherLeaves() throws {
        let harness = try ServerHarness()
        let watch = try harness.client().watch()
        #expect(waitUntil("the server to hold 1 connection") { harness.server.connectionCount == 1 })
        watch.close()
        #expect(waitUntil("the server to hold 0 connections") { harness.server.connectionCount == 0 })
        try harness.context.setOverride(.pageSize, to: 44)
        let last = try #require(harness.context.changeLog.last)
        #expect(last.observerRuns.isEmpty)
    }
}
