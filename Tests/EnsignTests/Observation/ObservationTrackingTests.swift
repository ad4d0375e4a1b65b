import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("Observation framework tracking")
struct ObservationTrackingTests {
    @Test("Reading key A tracks A alone: a change to B does not fire, a change to A does")
    func perKey() throws {
        let context = try ContextFixtures.context()
        let fired = trackedChanges { _ = context[.pageSize] }
        try context.setOverride(.showPendingList, to: true)
        #expect(fired.count == 0)
        try context.setOverride(.pageSize, to: 30)
        #expect(fired.count == 1)
    }

    @Test("An unchanged write does not fire tracking")
    func unchanged() throws {
        let context = try ContextFixtures.context()
        let fired = trackedChanges { _ = context[.pageSize] }
        try context.setOverride(.pageSize, to: 20)
        #expect(fired.count == 0)
    }

    @Test("Reads through a prefix scope and a child are tracked per key too")
    func scopesAndChildren() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "screen")
        let scoped = context.scope("beneficiaries")
        let childFired = trackedChanges { _ = child[.pageSize] }
        let scopeFired = trackedChanges { _ = scoped[FlagKey("showPendingList", default: false)] }
        try context.setOverride(.pageSize, to: 30)
        #expect(childFired.count == 1)
        #expect(scopeFired.count == 0)
        try context.setOverride(.showPendingList, to: true)
        #expect(scopeFired.count == 1)
    }
}
