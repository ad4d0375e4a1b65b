import EnsignSupport
import Synchronization
import Testing

@Suite("Background threads")
struct BackgroundThreadTests {
    @Test("A background thread runs its work at lowered priority, and the caller's thread keeps its own")
    func lowersOnlyItself() {
        let observed = LockedState<Bool?>(nil)
        let thread = BackgroundThread(name: "lowered") { observed.withLock { $0 = BackgroundThread.isCurrentLowered } }
        thread.join()
        #expect(observed.withLock { $0 } == true)
        #expect(!BackgroundThread.isCurrentLowered)
    }

    @Test("Joining waits for the work to end")
    func joinWaits() {
        let finished = Atomic<Int>(0)
        let threads = (0..<4).map { _ in
            BackgroundThread(name: "joined") {
                for _ in 0..<1_000 { finished.add(1, ordering: .relaxed) }
            }
        }
        for thread in threads { thread.join() }
        #expect(finished.load(ordering: .relaxed) == 4_000)
    }
}
