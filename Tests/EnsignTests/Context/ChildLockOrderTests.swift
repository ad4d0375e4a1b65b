import Dispatch
import EnsignTestTraits
import Testing

@testable import Ensign

/// Children and their parents share one writer lock and never nest snapshot locks, so a
/// parent's writes, a child's reads and a child's own writes cannot deadlock.
@Suite("Parent writes, child reads and child writes together")
struct ChildLockOrderTests {
    @Test("Three threads on a parent and its child finish (the lock order that once deadlocked)", .blocksItsThread)
    func parentWritesChildReadsChildWrites() throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "child")
        let grandchild = child.makeChild(label: "grandchild")
        let group = DispatchGroup()
        let rounds = 5_000
        let work: [@Sendable () -> Void] = [
            { for round in 0..<rounds { try? context.setOverride(.pageSize, to: 5 + round % 90) } },
            { for _ in 0..<rounds { _ = child[.pageSize] + grandchild[.pageSize] } },
            { for round in 0..<rounds { try? child.setOverride(.showPendingList, to: round % 2 == 0) } },
            {
                for round in 0..<rounds {
                    try? grandchild.setOverride(.sortOrder, to: round % 2 == 0 ? .name : .recent)
                }
            },
        ]
        for body in work { DispatchQueue.global().async(group: group, execute: body) }
        // A deadlock fails here instead of hanging the run (the stuck threads are left behind).
        let finished = group.wait(timeout: .now() + .seconds(60)) == .success
        #expect(finished, "the threads did not finish in 60 s: a lock-order deadlock")
        guard finished else { return }
        #expect(child[.showPendingList] == true || child[.showPendingList] == false)
        #expect(grandchild[.pageSize] == context[.pageSize])
    }
}
