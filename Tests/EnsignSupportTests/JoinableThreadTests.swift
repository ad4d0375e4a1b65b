import EnsignSupport
import Synchronization
import Testing

@Suite("JoinableThread")
struct JoinableThreadTests {
    @Test("A thread runs its body once; joining waits for it, and the thread counts itself out by name")
    func runsAndCounts() {
        let name = "test-count-\(UInt32.random(in: 0...UInt32.max))"
        let gate = LockedCondition(false)
        let runs = Atomic<Int>(0)
        let thread = JoinableThread(name: name) {
            gate.wait(until: { $0 }, then: { _ in })
            runs.add(1, ordering: .relaxed)
        }
        #expect(JoinableThread.runningCount(named: name) == 1, "counted before the body runs")
        gate.update { $0 = true }
        thread.join()
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(JoinableThread.runningCount(named: name) == 0)
    }

    @Test("A thread knows itself, and joining itself detaches instead of deadlocking")
    func joinFromItself() {
        let sawItself = LockedCondition<Bool?>(nil)
        let holder = LockedState<JoinableThread?>(nil)
        let ready = LockedCondition(false)
        let thread = JoinableThread(name: "test-self-join") {
            ready.wait(until: { $0 }, then: { _ in })
            let me = holder.withLock { $0 }!
            let isCurrent = me.isCurrent
            me.join()  // would never return if it joined
            sawItself.update { $0 = isCurrent }
        }
        holder.withLock { $0 = thread }
        ready.update { $0 = true }
        sawItself.wait(until: { $0 != nil }, then: { _ in })
        #expect(sawItself.withLock { $0 } == true)
        #expect(!thread.isCurrent)
    }

    @Test("start(name:) starts a thread as init does, for callers that report failure")
    func startThrowingVariant() throws {
        let ran = LockedCondition(false)
        let thread = try JoinableThread.start(name: "test-start") { ran.update { $0 = true } }
        thread.join()
        #expect(ran.withLock { $0 })
    }
}
