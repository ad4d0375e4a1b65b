import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("Prefix scopes and child contexts")
struct ScopeTests {
    let showPendingList = FlagKey("showPendingList", default: false)
    let pageSize = FlagKey("pageSize", default: 1)

    @Test("A prefix scope reads its keys with short names")
    func prefixScope() throws {
        let context = try ContextFixtures.context(environment: "development")
        let beneficiaries = context.scope("beneficiaries")
        #expect(beneficiaries[showPendingList] == true)
        #expect(beneficiaries[pageSize] == 20)
        #expect(beneficiaries.details(for: pageSize).key == "beneficiaries.pageSize")
        #expect(beneficiaries.value(forKeyNamed: "pageSize") == 20)
        // Nested scopes concatenate.
        #expect(context.scope("beneficiaries").scope("x")[FlagKey("y", default: 7)] == 7)
    }

    @Test("A full key read through a scope is not found, and the error says what key to use instead")
    func fullKeyInScope() throws {
        let context = try AppContext(
            definitions: "flags:\n  beneficiaries.pageSize: { default: 20 }\n  payments.limit: { default: 5 }\n")
        let beneficiaries = context.scope("beneficiaries")
        let doubled = beneficiaries.details(for: FlagKey("beneficiaries.pageSize", default: 1))
        #expect(doubled.value == 1 && doubled.errorCode == .flagNotFound)
        #expect(
            doubled.errorMessage
                == "'beneficiaries.beneficiaries.pageSize' is not defined: this context is scoped to 'beneficiaries.'"
                + " and reads keys relative to it; 'beneficiaries.pageSize' is defined; here its key is 'pageSize'")
        let elsewhere = beneficiaries.details(forKeyNamed: "payments.limit")
        #expect(
            elsewhere.errorMessage?.hasSuffix("'payments.limit' is defined; read it through an unscoped context")
                == true)
        // Not defined under either name: the usual message.
        #expect(beneficiaries.details(forKeyNamed: "nothing").errorMessage == "no definitions file defines this key")
    }

    @Test("Writes and observers through a prefix scope use the full key")
    func prefixScopeWritesAndObservers() throws {
        let context = try ContextFixtures.context()
        let beneficiaries = context.scope("beneficiaries")
        let seen = Recorder<Int>()
        let batches = Recorder<[String]>()
        let tokens = [
            beneficiaries.observe(pageSize) { seen.record($0) },
            beneficiaries.observeAll { batches.record($0.keys) },
        ]
        try beneficiaries.setOverride(pageSize, to: 30)
        try context.setPreference(.darkMode, to: true)  // outside the scope: its observeAll does not hear it
        #expect(context[.pageSize] == 30)
        #expect(seen.values == [30])
        #expect(batches.values == [["beneficiaries.pageSize"]])
        _ = tokens
    }

    @Test("The same key read through two scopes reads two keys")
    func sameKeyTwoScopes() throws {
        let context = try AppContext(definitions: "flags:\n  a.size: { default: 1 }\n  b.size: { default: 2 }\n")
        let size = FlagKey("size", default: 0)
        for _ in 0..<3 {
            #expect(context.scope("a")[size] == 1)
            #expect(context.scope("b")[size] == 2)
        }
    }

    @Test("A child inherits the parent's values live, and its observers hear parent changes")
    func childInheritsLive() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "screen")
        let seen = Recorder<Int>()
        let token = child.observe(.pageSize) { seen.record($0) }
        try context.setOverride(.pageSize, to: 30)
        #expect(child[.pageSize] == 30)
        #expect(seen.values == [30])
        _ = token
    }

    @Test("A child's own override masks parent changes: its observers are not woken")
    func childMasks() throws {
        let context = try ContextFixtures.context()
        let child = try context.makeChild(label: "preview") { try $0.setOverride(.pageSize, to: 99) }
        let childSeen = Recorder<Int>()
        let parentSeen = Recorder<Int>()
        let tokens = [
            child.observe(.pageSize) { childSeen.record($0) },
            context.observe(.pageSize) { parentSeen.record($0) },
        ]
        try context.setOverride(.pageSize, to: 30)
        #expect(parentSeen.values == [30])
        #expect(childSeen.values.isEmpty)
        #expect(child[.pageSize] == 99)
        child.removeOverride(.pageSize)
        #expect(childSeen.values == [30])
        #expect(child.changeLog.last?.cause == .scope("preview"))
        _ = tokens
    }

    @Test("A grandchild inherits through its parent and masks independently")
    func grandchild() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "child")
        let grandchild = try child.makeChild(label: "grandchild") { try $0.setOverride(.showPendingList, to: true) }
        let seen = Recorder<Int>()
        let token = grandchild.observe(.pageSize) { seen.record($0) }
        try context.setOverride(.pageSize, to: 30)
        #expect(grandchild[.pageSize] == 30)
        #expect(grandchild[.showPendingList] == true)
        #expect(context[.showPendingList] == false)
        #expect(seen.values == [30])
        _ = token
    }

    @Test("Preferences written through a child go to the root")
    func childPreferences() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "settings")
        try child.setPreference(.darkMode, to: true)
        #expect(context[.darkMode] == true)
    }
}
