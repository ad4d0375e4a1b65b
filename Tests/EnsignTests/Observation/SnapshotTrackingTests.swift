import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("Observation framework tracking of snapshot reads")
struct SnapshotTrackingTests {
    /// Runs `read` under `withObservationTracking`, then `writes`, and returns how many times it fired.
    func firings(_ read: () -> Void, after writes: () throws -> Void) rethrows -> Int {
        let fired = trackedChanges(of: read)
        try writes()
        return fired.count
    }

    /// Expects `read` to depend on `pageSize` alone: a write of `showPendingList` fires nothing,
    /// one of `pageSize` (to 30) fires once.
    func expectTracksPageSizeAlone(
        _ read: () -> Void, in context: AppContext, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try firings(read) { try context.setOverride(.showPendingList, to: true) } == 0,
            sourceLocation: sourceLocation)
        #expect(try firings(read) { try context.setOverride(.pageSize, to: 30) } == 1, sourceLocation: sourceLocation)
    }

    @Test("Reading key A through a snapshot tracks A alone")
    func perKey() throws {
        let context = try ContextFixtures.context()
        let read = {
            let snapshot = context.snapshot
            _ = snapshot[.pageSize]
        }
        try expectTracksPageSizeAlone(read, in: context)
    }

    @Test("Several keys read through one snapshot are each tracked")
    func severalKeys() throws {
        let context = try ContextFixtures.context()
        let read = {
            let snapshot = context.snapshot
            _ = (snapshot[.pageSize], snapshot[.darkMode])
        }
        #expect(try firings(read) { try context.setPreference(.darkMode, to: true) } == 1)
        #expect(try firings(read) { try context.setOverride(.pageSize, to: 40) } == 1)
        #expect(try firings(read) { try context.setOverride(.sortOrder, to: .name) } == 0)
    }

    @Test("Snapshot reads through a prefix scope and a child are tracked per full key")
    func scopesAndChildren() throws {
        let context = try ContextFixtures.context()
        let scoped = context.scope("beneficiaries")
        let child = context.makeChild(label: "screen")
        let readScoped = { _ = scoped.snapshot[FlagKey("pageSize", default: 0)] }
        let readChild = { _ = child.snapshot[.pageSize] }
        try expectTracksPageSizeAlone(readScoped, in: context)
        #expect(try firings(readChild) { try context.setOverride(.pageSize, to: 31) } == 1)
        #expect(try firings(readChild) { try child.setOverride(.pageSize, to: 5) } == 1)
    }

    @Test("A snapshot read by key name is tracked too")
    func byName() throws {
        let context = try ContextFixtures.context()
        try expectTracksPageSizeAlone(
            { _ = context.snapshot.value(forKeyNamed: "beneficiaries.pageSize") }, in: context)
    }

    @Test("Reads through an untracked snapshot make nothing depend on them")
    func untracked() throws {
        let context = try ContextFixtures.context()
        let read = {
            _ = (
                context.untrackedSnapshot[.pageSize],
                context.scope("beneficiaries").untrackedSnapshot[FlagKey("pageSize", default: 0)]
            )
        }
        #expect(try firings(read) { try context.setOverride(.pageSize, to: 30) } == 0)
        #expect(context.untrackedSnapshot[.pageSize] == 30)
    }
}
