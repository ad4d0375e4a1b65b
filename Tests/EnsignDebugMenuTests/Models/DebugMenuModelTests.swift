import EnsignDebugMenu
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

@Suite("The in-app debug menu's model")
@MainActor
struct DebugMenuModelTests {
    @Test("It lists the context's keys by namespace, filters them, and shows each write's outcome")
    func listsAndWrites() throws {
        let context = try BeneficiariesFixture.context()
        let menu = DebugMenuModel(context: context)
        #expect(menu.title == "\(context.label) (development)")
        #expect(menu.groups.map(\.name) == ["beneficiaries"])
        #expect(menu.groups.first?.entries.count == 3)
        menu.filter = "page"
        #expect(menu.groups.flatMap(\.entries).map(\.key) == ["beneficiaries.pageSize"])

        menu.set("beneficiaries.pageSize", text: "40")
        #expect(menu.message == "beneficiaries.pageSize = 40")
        #expect(menu.lastRefusal == nil)
        #expect(menu.list.entry(forKey: "beneficiaries.pageSize")?.value == .int(40))
        #expect(menu.list.entry(forKey: "beneficiaries.pageSize")?.isOverridden == true)

        menu.set("beneficiaries.pageSize", text: "4")  // under the minimum
        #expect(menu.message.hasPrefix("✗ "))
        #expect(menu.lastRefusal?.contains("beneficiaries.pageSize") == true)
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 40)

        menu.toggle("beneficiaries.showPendingList")
        #expect(menu.message == "toggled beneficiaries.showPendingList")
        #expect(menu.lastRefusal == nil)
        menu.reset("beneficiaries.pageSize")
        #expect(menu.list.entry(forKey: "beneficiaries.pageSize")?.value == .int(20))
        menu.toggle("beneficiaries.nothing")
        #expect(menu.message == "✗ no key beneficiaries.nothing")
    }

    @Test("A change made elsewhere reaches the model, and Observation sees the entries change")
    func refreshesOnOutsideChanges() async throws {
        let context = try BeneficiariesFixture.context()
        let menu = DebugMenuModel(context: context)
        let changed = trackedChanges { _ = menu.groups }
        try context.setOverride(keyNamed: "beneficiaries.sortOrder", to: "name")  // as `ensign set` would
        let arrived = await waitUntil("the menu shows the outside write", timeout: .seconds(30)) { () async in
            menu.list.entry(forKey: "beneficiaries.sortOrder")?.value == .string("name")
        }
        #expect(arrived)
        #expect(changed.count >= 1)
        #expect(menu.list.entry(forKey: "beneficiaries.sortOrder")?.isOverridden == true)
    }

    @Test("A filter change is observed, and a write that changes nothing else leaves the other keys' entries equal")
    func observedFilter() throws {
        let menu = DebugMenuModel(context: try BeneficiariesFixture.context())
        let changed = trackedChanges { _ = menu.filter }
        menu.filter = "sort"
        #expect(changed.count == 1)
        let before = menu.list.entries.filter { $0.key != "beneficiaries.pageSize" }
        menu.set("beneficiaries.pageSize", text: "25")
        #expect(menu.list.entries.filter { $0.key != "beneficiaries.pageSize" } == before)
    }

    @Test("A released model stops watching: the context keeps no observer of it")
    func releaseStopsWatching() throws {
        let context = try BeneficiariesFixture.context()
        weak var released: DebugMenuModel?
        do {
            let menu = DebugMenuModel(context: context)
            released = menu
            #expect(context.store.observers.counts.observers == 1)
        }
        #expect(released == nil)
        #expect(context.store.observers.isEmpty)
    }

    @Test("Writes from another thread racing the menu's refreshes end with the menu showing the last one")
    func racingWrites() async throws {
        let context = try BeneficiariesFixture.context()
        let menu = DebugMenuModel(context: context)
        let values = Array(5...100)
        let writer = Thread {
            for value in values { try? context.setOverride(keyNamed: "beneficiaries.pageSize", to: .int(value)) }
        }
        writer.start()
        let settled = await waitUntil("the menu shows the last of the writes", timeout: .seconds(60)) { () async in
            menu.list.entry(forKey: "beneficiaries.pageSize")?.value == .int(100)
        }
        #expect(settled)
        // Refreshes still queued read the context again: none of them brings an older value back.
        for _ in 0..<20 { await Task.yield() }
        #expect(menu.list.entry(forKey: "beneficiaries.pageSize")?.value == .int(100))
        #expect(menu.message == "")
    }

    @Test("A burst of outside changes queues one refresh, not one per change, and it shows the last")
    func burstCoalesces() async throws {
        let context = try BeneficiariesFixture.context()
        let backend = CountingBackend(inner: ContextDebugMenuBackend(context: context))
        let menu = DebugMenuModel(backend: backend)
        #expect(backend.reads.count == 1)
        // Written on the main actor, so no queued refresh can run before the burst ends.
        for value in 5...100 { try context.setOverride(keyNamed: "beneficiaries.pageSize", to: .int(value)) }
        let settled = await waitUntil("the menu shows the burst's last write", timeout: .seconds(30)) { () async in
            menu.list.entry(forKey: "beneficiaries.pageSize")?.value == .int(100)
        }
        #expect(settled)
        #expect(backend.reads.count == 2, "one read at the start, one for the whole burst")

        // After that refresh has begun, a new change queues a refresh of its own.
        try context.setOverride(keyNamed: "beneficiaries.sortOrder", to: "name")
        let again = await waitUntil("the menu shows the next change", timeout: .seconds(30)) { () async in
            menu.list.entry(forKey: "beneficiaries.sortOrder")?.value == .string("name")
        }
        #expect(again)
        #expect(backend.reads.count == 3)
    }

    @Test(
        "A backend that cannot be read or watched leaves an empty menu that says why, and refuses writes to keys it lacks"
    )
    func brokenBackend() {
        let menu = DebugMenuModel(backend: UnreachableBackend())
        #expect(menu.title == "gone")
        #expect(menu.groups.isEmpty)
        #expect(menu.message.hasPrefix("✗ cannot watch for changes"))
        #expect(menu.lastRefusal?.contains("socket closed") == true)
        menu.toggle("beneficiaries.showPendingList")
        #expect(menu.message == "✗ no key beneficiaries.showPendingList")
        menu.set("beneficiaries.pageSize", text: "50")
        // The write's own reason, not replaced by a refresh that fails too.
        #expect(menu.message == "✗ socket closed")
        #expect(menu.lastRefusal == "socket closed")
        menu.refresh()
        #expect(menu.message == "✗ cannot read the app's keys: socket closed")
        #expect(menu.groups.isEmpty)
    }
}

/// The in-process backend, counting how often the menu reads every entry.
private struct CountingBackend: DebugMenuBackend {
    let inner: ContextDebugMenuBackend
    let reads = Recorder<Int>()

    var title: String { inner.title }
    func entries() throws -> [DebugMenuEntry] {
        reads.record(1)
        return try inner.entries()
    }
    func toggle(_ key: String) throws { try inner.toggle(key) }
    func set(_ key: String, to value: JSONValue, persist: Bool) throws {
        try inner.set(key, to: value, persist: persist)
    }
    func reset(_ key: String) throws { try inner.reset(key) }
    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void {
        try inner.watch(onChange)
    }
}

/// A backend whose app has gone away: every call fails.
private struct UnreachableBackend: DebugMenuBackend {
    struct Closed: Error, CustomStringConvertible {
        var description: String { "socket closed" }
    }

    var title: String { "gone" }
    func entries() throws -> [DebugMenuEntry] { throw Closed() }
    func toggle(_ key: String) throws { throw Closed() }
    func set(_ key: String, to value: JSONValue, persist: Bool) throws { throw Closed() }
    func reset(_ key: String) throws { throw Closed() }
    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void { throw Closed() }
}
