import EnsignTestSupport
import Testing

@testable import Ensign

/// `ContextKeyModel`: tracked per key with `withObservationTracking`, written through like the
/// API, and gone without a trace when released.
@Suite("ContextKeyModel")
@MainActor
struct ContextKeyModelTests {
    /// Tracks `model.value` once; the counter counts the tracking's firing.
    private func track<Value, Kind>(_ model: ContextKeyModel<Value, Kind>) -> AtomicCounter {
        trackedChanges { _ = model.value }
    }

    @Test("Tracking fires for a change of its key, not for another key or a write that leaves the value")
    func tracksItsKeyAlone() async throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        #expect(model.value == 20)
        let fired = track(model)
        try context.setOverride(.showPendingList, to: true)
        try context.setOverride(.pageSize, to: 20)  // the value it already has
        try context.setPreference(.darkMode, to: true)
        await Hopping.mainActorBarrier()
        #expect(fired.count == 0)
        #expect(model.value == 20)
        try context.setOverride(.pageSize, to: 40)
        #expect(
            await waitUntil("the model to take the change", timeout: Hopping.patience) { () async in model.value == 40 }
        )
        #expect(fired.count == 1)
    }

    @Test("A change undone before it is delivered invalidates nothing: the model shows the newest value")
    func changeAndUndo() async throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        let fired = track(model)
        try context.setOverride(.pageSize, to: 40)
        context.removeOverride(.pageSize)
        await Hopping.mainActorBarrier()
        #expect(fired.count == 0)
        #expect(model.value == 20)
    }

    @Test("Changes from another thread reach the model, which ends on the last value committed")
    func changesFromOtherThreads() async throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        await Hopping.onThreads(2) { writer in
            for index in 0..<200 { try? context.setOverride(.pageSize, to: 5 + (writer * 7 + index) % 95) }
        }
        let last = context[.pageSize]
        #expect(
            await waitUntil("the model to reach the last value", timeout: Hopping.patience) { () async in
                model.value == last
            })
        await Hopping.mainActorBarrier()
        #expect(model.value == last)
    }

    @Test("Setting editableValue of a flag sets an override: the context and the model have it at once")
    func editableFlag() throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        let fired = track(model)
        model.editableValue = 50
        #expect(model.value == 50)
        #expect(model.editableValue == 50)
        #expect(context[.pageSize] == 50)
        #expect(context.details(for: .pageSize).reason == .override)
        #expect(context.overrides["beneficiaries.pageSize"]?.actor == "settings")
        #expect(model.lastWriteError == nil)
        #expect(fired.count == 1)
        #expect(model.details.value == 50)
        #expect(model.details.reason == .override)
    }

    @Test("Setting editableValue of a preference sets the preference, not an override")
    func editablePreference() throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .darkMode)
        model.editableValue = true
        #expect(context[.darkMode])
        #expect(model.value)
        #expect(context.details(for: .darkMode).reason == .preference)
        #expect(context.overrides.isEmpty)
    }

    @Test("A refused write keeps the value and stores the error; the next good write clears it")
    func refusedWrite() throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        let fired = track(model)
        model.editableValue = 5_000  // over the maximum, 100
        guard case .invalidValue(let key, _) = model.lastWriteError else {
            Issue.record("expected invalidValue, got \(String(describing: model.lastWriteError))")
            return
        }
        #expect(key == "beneficiaries.pageSize")
        #expect(model.value == 20)
        #expect(model.editableValue == 20)
        #expect(context[.pageSize] == 20)
        #expect(context.overrides.isEmpty)
        #expect(fired.count == 0)
        model.editableValue = 60
        #expect(model.lastWriteError == nil)
        #expect(model.value == 60)
    }

    @Test("Writes a definition refuses: a value outside the enum, the wrong type, an undefined key")
    func refusedByDefinition() throws {
        let context = try ContextFixtures.context()
        let sortOrder = ContextKeyModel(context: context, key: FlagKey("beneficiaries.sortOrder", default: "name"))
        sortOrder.editableValue = "alphabetical"
        #expect(sortOrder.lastWriteError.map { if case .invalidValue = $0 { true } else { false } } == true)
        #expect(sortOrder.value == "recent")
        // A string written to a bool flag.
        let asString = ContextKeyModel(context: context, key: FlagKey("beneficiaries.showPendingList", default: "no"))
        asString.editableValue = "yes"
        #expect(asString.lastWriteError.map { if case .invalidValue = $0 { true } else { false } } == true)
        #expect(context[.showPendingList] == false)
        let undefined = ContextKeyModel(context: context, key: FlagKey("nowhere.defined", default: 1))
        undefined.editableValue = 2
        #expect(undefined.lastWriteError.map { if case .undefinedKey = $0 { true } else { false } } == true)
        #expect(undefined.value == 1)
    }

    @Test("A model of a child context writes the child's override; the parent keeps its value")
    func childContext() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "preview")
        let model = ContextKeyModel(context: child, key: .pageSize)
        model.editableValue = 70
        #expect(child[.pageSize] == 70)
        #expect(context[.pageSize] == 20)
        #expect(model.value == 70)
    }

    @Test("A released model leaves no observer in the context and is not kept alive by it")
    func releasedModel() async throws {
        let context = try ContextFixtures.context()
        var model: ContextKeyModel<Int, FlagKeyKind>? = ContextKeyModel(context: context, key: .pageSize)
        weak let released = model
        #expect(context.store.observers.counts.observers == 1)
        try context.setOverride(.pageSize, to: 30)  // a change queued for the model
        model = nil
        #expect(released == nil, "the context kept the model alive")
        #expect(context.store.observers.counts.observers == 0)
        await Hopping.mainActorBarrier()  // the queued change finds no model, and does nothing
        #expect(context[.pageSize] == 30)
    }

    @Test("The model's run appears in the change log under its label")
    func changeLog() async throws {
        let context = try ContextFixtures.context()
        let model = ContextKeyModel(context: context, key: .pageSize)
        try context.setOverride(.pageSize, to: 45)
        #expect(
            await waitUntil("the model to take the change", timeout: Hopping.patience) { () async in model.value == 45 }
        )
        #expect(context.changeLog.last?.observerRuns.map(\.label) == ["ContextKeyModel of beneficiaries.pageSize"])
    }
}
