import EnsignDebugMenu
import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("The one key model a view reads a key through")
@MainActor
struct ContextKeyModelSlotTests {
    @Test("The same context and key give the same model, so updates register no new observer")
    func sameModel() throws {
        let context = try BeneficiariesFixture.context()
        let slot = ContextKeyModelSlot<Bool, FlagKeyKind>()
        let first = slot.model(for: context, key: .showPendingList)
        for _ in 0..<50 { #expect(slot.model(for: context, key: .showPendingList) === first) }
        #expect(context.store.observers.counts.observers == 1)
    }

    @Test("Another context gets a model of its own; the old model is released with its observer")
    func anotherContext() throws {
        let first = try BeneficiariesFixture.context()
        let second = try BeneficiariesFixture.context()
        try second.setOverride(.showPendingList, to: true)
        let slot = ContextKeyModelSlot<Bool, FlagKeyKind>()
        weak let old = slot.model(for: first, key: .showPendingList)
        let replacement = slot.model(for: second, key: .showPendingList)
        #expect(old == nil)
        #expect(first.store.observers.isEmpty)
        #expect(replacement.context === second)
        #expect(replacement.value == true)
    }

    @Test("A child of the same parent is another context: the slot does not keep the parent's model")
    func childIsAnotherContext() throws {
        let parent = try BeneficiariesFixture.context()
        let child = parent.makeChild(label: "preview")
        try child.setOverride(.showPendingList, to: true)
        let slot = ContextKeyModelSlot<Bool, FlagKeyKind>()
        #expect(slot.model(for: parent, key: .showPendingList).value == false)
        #expect(slot.model(for: child, key: .showPendingList).value == true)
    }

    @Test("Another key of the same type gets a model of its own")
    func anotherKey() throws {
        let context = try BeneficiariesFixture.context()
        let slot = ContextKeyModelSlot<Int, FlagKeyKind>()
        let other = FlagKey<Int>("beneficiaries.otherSize", default: 7)
        let pageSize = slot.model(for: context, key: .pageSize)
        let model = slot.model(for: context, key: other)
        #expect(model !== pageSize)
        #expect(model.key.name == "beneficiaries.otherSize")
        #expect(slot.model(for: context, key: .pageSize).key.name == "beneficiaries.pageSize")
    }

    @Test("A read through the slot is tracked for its key alone, as a view's body would be")
    func trackedPerKey() async throws {
        let context = try BeneficiariesFixture.context()
        let slot = ContextKeyModelSlot<Bool, FlagKeyKind>()
        let otherModel = ContextKeyModelSlot<Int, FlagKeyKind>().model(for: context, key: .pageSize)
        let invalidations = trackedChanges { _ = slot.model(for: context, key: .showPendingList).value }
        // The unchanged write first: once the later change of another key has reached the main
        // actor, a delivery of the earlier one has too.
        try context.setOverride(.showPendingList, to: false)  // the same value
        try context.setOverride(.pageSize, to: 50)  // another key
        let otherArrived = await waitUntil("the other key's change reaches its model", timeout: .seconds(30)) {
            () async in otherModel.value == 50
        }
        #expect(otherArrived)
        await Task.yield()
        #expect(invalidations.count == 0, "another key's change or an unchanged value invalidated the read")

        try context.setOverride(.showPendingList, to: true)
        let invalidated = await waitUntil("the view's read is invalidated", timeout: .seconds(30)) { () async in
            invalidations.count == 1
        }
        #expect(invalidated)
        #expect(slot.model(for: context, key: .showPendingList).value == true)
    }
}
