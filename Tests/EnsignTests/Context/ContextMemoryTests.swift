import Testing

@testable import Ensign

@Suite("What contexts and scopes keep as they are used")
struct ContextMemoryTests {
    @Test("Per-request child contexts leave no heap behind when no write comes between them")
    func releasedChildrenFreeTheirMemory() throws {
        // Before the fix each released child kept a weak reference (about 60 bytes) until the next round.
        let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: "children", count: 50_000)
        #expect(retained < 16, "\(retained) bytes per child stayed behind")
    }

    @Test("Keys made afresh for each read through a scope leave no heap behind")
    func freshKeysThroughScopeFreeTheirMemory() throws {
        // Before the fix the scope kept every key it had seen, and its twin: about 390 bytes a read.
        let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: "scoped-keys", count: 20_000)
        #expect(retained < 16, "\(retained) bytes per read stayed behind")
    }

    @Test("A scope keeps one twin per key name however many key values name it, and reads them right")
    func scopeKeepsOneTwinPerName() throws {
        let context = try ContextFixtures.context()
        let scope = context.scope("beneficiaries")
        try context.setOverride(.pageSize, to: 42)
        for _ in 0..<2_000 {
            #expect(scope[FlagKey("pageSize", default: 0)] == 42)
            #expect(scope[FlagKey("showPendingList", default: true)] == false)
        }
        let counts = try #require(scope.scopedKeys?.counts)
        #expect(counts.twins == 2)
        #expect(counts.cachedIdentities <= ScopedKeyTable.identityCacheBound)
    }

    @Test("A flag and a preference of the same name read through a scope each keep their kind")
    func twinsKeepTheirKind() throws {
        let context = AppContext(values: ["app.dark": true])
        let scope = context.scope("app")
        #expect(scope[FlagKey("dark", default: false)] == true)
        let preference = UserPreferenceKey("dark", default: false)
        _ = scope[preference]
        #expect(scope.scopedKeys?.identity(for: preference.identity).kind == .preference)
        #expect(scope.scopedKeys?.counts.twins == 2)
    }
}
