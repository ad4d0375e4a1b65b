import Dispatch
import EnsignSupport
import Testing

/// `LockedState` is the one lock under everything else; these run it under the thread
/// sanitizer in `scripts/test`, which is what they are for.
@Suite("LockedState")
struct LockedStateTests {
    @Test("Threads taking one lock each add every increment exactly once")
    func incrementsFromThreads() {
        let counter = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 40_000)
    }

    /// An empty state once made the sanitizer report a "Swift access race": the `inout` access
    /// of a zero-sized header went to a placeholder address that another thread's unlocked read
    /// of the object overlapped (found by the stress test's observer churn, `LockedState(())`
    /// made per `values(for:)` stream and taken by delivering threads at once).
    @Test("A lock over an empty state, made and taken by threads at once, is held by one at a time")
    func emptyStateFromThreads() {
        let mostInsideAtOnce = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 2_000) { _ in
            let lock = LockedState(())
            let inside = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                lock.withLock { _ in
                    let count = inside.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    mostInsideAtOnce.withLock { $0 = max($0, count) }
                    inside.withLock { $0 -= 1 }
                }
            }
        }
        #expect(mostInsideAtOnce.withLock { $0 } == 1)
    }
}
