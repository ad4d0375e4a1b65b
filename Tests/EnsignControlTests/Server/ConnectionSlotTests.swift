import Ensign
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import EnsignControl

/// Lingering and watching clients never lock the debug CLI out, and a client that reconnects
/// in a loop does not flood the app's log.
@Suite("Connection slots: idle and watching clients leave room for requests")
struct ConnectionSlotTests {
    @Test(
        "With every slot held by idle clients, a newcomer takes the idlest one's place, which is told why",
        .blocksItsThread)
    func idleClientsMakeRoom() throws {
        let harness = try ServerHarness { $0.maximumConnections = 4 }
        let lingering = try (0..<4).map { _ in try harness.raw() }
        for connection in lingering { #expect(try connection.request(#"{"id":1,"op":"status"}"#)?["ok"] == true) }
        // Quiet for longer than the eviction threshold (the idle timeout is still minutes away).
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try harness.client().status().server.app == "testapp")
        let told = lingering.filter {
            (try? $0.receive(timeout: .milliseconds(300)))??["error"]?["code"] == "IDLE_TIMEOUT"
        }
        #expect(told.count == 1, "exactly one lingering client made room")
    }

    @Test("Watchers take at most three quarters of the slots; the rest stay for requests", .blocksItsThread)
    func watchersLeaveRoom() throws {
        let harness = try ServerHarness { $0.maximumConnections = 4 }
        #expect(RequestHandler.watcherLimit(maximumConnections: 4) == 3)
        let watchers = try (0..<3).map { _ in try harness.raw() }
        for watcher in watchers { #expect(try watcher.request(#"{"id":1,"op":"watch"}"#)?["ok"] == true) }
        let fourth = try harness.raw()
        let refusal = try fourth.request(#"{"id":2,"op":"watch"}"#)
        #expect(refusal?["error"]?["code"] == "BUSY")
        // The refused watcher's connection still answers requests, and so does a new client.
        #expect(try fourth.request(#"{"id":3,"op":"get","key":"beneficiaries.pageSize"}"#)?["result"]?["value"] == 30)
        Thread.sleep(forTimeInterval: 0.6)
        try harness.context.setOverride(.pageSize, to: 44)
        #expect(try harness.client().get("beneficiaries.pageSize").value == 44)
        #expect(try watchers[0].receive()?["event"] == "change", "watchers are never evicted")
    }

    @Test("A burst of refused connections is logged once a second, with how many were held back", .blocksItsThread)
    func refusalsAreRateLimited() throws {
        let harness = try ServerHarness { $0.maximumConnections = 1 }
        let holder = try harness.raw()
        #expect(try holder.request(#"{"id":1,"op":"status"}"#)?["ok"] == true)
        for _ in 0..<30 {
            let refused = try harness.raw()
            #expect(try refused.receive()?["error"]?["code"] == "BUSY")
        }
        let lines = harness.logged.values.filter { $0.contains("maximumConnections") }
        #expect((1...2).contains(lines.count), "\(lines)")
        Thread.sleep(forTimeInterval: 1.1)
        // The holder stays busy, so the next newcomer is refused rather than taking its place.
        #expect(try holder.request(#"{"id":2,"op":"status"}"#)?["ok"] == true)
        #expect(try harness.raw().receive()?["error"]?["code"] == "BUSY")
        let later = harness.logged.values.filter { $0.contains("maximumConnections") }
        #expect(later.last?.contains("more like it since the last report") == true, "\(later)")
    }
}
