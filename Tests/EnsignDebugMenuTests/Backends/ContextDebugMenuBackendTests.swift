import Ensign
import EnsignDebugMenu
import EnsignTestSupport
import Testing

@Suite("The in-process debug menu backend and the menu's actions")
struct ContextDebugMenuBackendTests {
    @Test("Entries carry each key's type, value in force, reason and summary; none is overridden at first")
    func entries() throws {
        let entries = try ContextDebugMenuBackend(context: try BeneficiariesFixture.context(overlaid: true)).entries()
        let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0) })
        #expect(
            byKey.keys.sorted() == [
                "beneficiaries.pageSize", "beneficiaries.showPendingList", "beneficiaries.sortOrder",
            ])
        #expect(byKey["beneficiaries.pageSize"]?.value == .int(30))  // the development overlay
        #expect(byKey["beneficiaries.pageSize"]?.type == "int")
        #expect(byKey["beneficiaries.showPendingList"]?.summary == "Show pending beneficiaries.")
        #expect(byKey["beneficiaries.sortOrder"]?.reason == "STATIC")
        #expect(entries.allSatisfy { !$0.isOverridden })
    }

    @Test("Toggle, set and reset write overrides by the actor 'menu', and the entries show them")
    func writes() throws {
        let context = try BeneficiariesFixture.context(overlaid: true)
        let actions = DebugMenuActions(backend: ContextDebugMenuBackend(context: context))
        let backend = actions.backend
        let pending = try #require(try backend.entries().first { $0.key == "beneficiaries.showPendingList" })

        #expect(actions.toggle(pending) == .done("toggled beneficiaries.showPendingList"))
        #expect(context.value(forKeyNamed: "beneficiaries.showPendingList") == true)
        #expect(context.overrides["beneficiaries.showPendingList"]?.actor == "menu")
        #expect(try backend.entries().first { $0.key == "beneficiaries.showPendingList" }?.isOverridden == true)

        #expect(actions.set("beneficiaries.pageSize", text: "50") == .done("beneficiaries.pageSize = 50"))
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 50)
        #expect(actions.set("beneficiaries.sortOrder", text: "name") == .done("beneficiaries.sortOrder = \"name\""))
        #expect(context.value(forKeyNamed: "beneficiaries.sortOrder") == "name")

        #expect(actions.reset("beneficiaries.pageSize") == .done("reset beneficiaries.pageSize"))
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 30)
        #expect(try backend.entries().first { $0.key == "beneficiaries.pageSize" }?.isOverridden == false)
    }

    @Test("A refused write is a message naming the problem and changes nothing")
    func refusals() throws {
        let context = try BeneficiariesFixture.context(overlaid: true)
        let actions = DebugMenuActions(backend: ContextDebugMenuBackend(context: context))
        for (key, text) in [
            ("beneficiaries.pageSize", "500"),  // over the maximum
            ("beneficiaries.pageSize", "many"),  // not an int
            ("beneficiaries.sortOrder", "size"),  // outside the enum
            ("beneficiaries.nothing", "1"),  // undefined
        ] {
            let outcome = actions.set(key, text: text)
            #expect(outcome.isRefused, "\(key) = \(text)")
            #expect(outcome.message.hasPrefix("✗ ") && outcome.message.contains(key), "\(outcome.message)")
        }
        let pageSize = try #require(try actions.backend.entries().first { $0.key == "beneficiaries.pageSize" })
        #expect(actions.toggle(pageSize) == .refused("beneficiaries.pageSize is an int: edit it instead"))
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 30)
        #expect(context.value(forKeyNamed: "beneficiaries.sortOrder") == "recent")
        #expect(context.overrides.isEmpty)
    }

    @Test("In a child context the menu's writes stay in the child, and its entries show them as overridden")
    func childWrites() throws {
        let root = try BeneficiariesFixture.context(overlaid: true)
        let child = root.makeChild(label: "preview")
        let actions = DebugMenuActions(backend: ContextDebugMenuBackend(context: child))
        #expect(actions.set("beneficiaries.pageSize", text: "42") == .done("beneficiaries.pageSize = 42"))
        #expect(child.value(forKeyNamed: "beneficiaries.pageSize") == 42)
        #expect(root.value(forKeyNamed: "beneficiaries.pageSize") == 30)
        #expect(try actions.backend.entries().first { $0.key == "beneficiaries.pageSize" }?.isOverridden == true)
        #expect(try ContextDebugMenuBackend(context: root).entries().allSatisfy { !$0.isOverridden })
    }

    @Test("watch calls back once per change made elsewhere, and not after it is stopped")
    func watching() throws {
        let context = try BeneficiariesFixture.context(overlaid: true)
        let changes = Recorder<Int>()
        let stop = try ContextDebugMenuBackend(context: context).watch { changes.record(1) }
        try context.setOverride(keyNamed: "beneficiaries.pageSize", to: .int(60))
        try context.setOverride(keyNamed: "beneficiaries.pageSize", to: .int(60))  // no change: no call
        #expect(changes.count == 1)
        stop()
        try context.setOverride(keyNamed: "beneficiaries.pageSize", to: .int(70))
        #expect(changes.count == 1)
    }
}
