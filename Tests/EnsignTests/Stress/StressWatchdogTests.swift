import EnsignTestTraits
import Testing

/// The watchdog itself: a stall fails with every thread's stack, within the stall limit.
@Suite("The stress watchdog")
struct StressWatchdogTests {
    @Test("A process whose threads deadlock is stopped, with every thread's stack", .blocksItsThread)
    func stopsADeadlock() throws {
        let outcome = try StressWatchdog.run(["stall"], stallLimit: .seconds(3))
        #expect(outcome.status == nil, "the watchdog stopped it")
        #expect(outcome.stalled.contains { $0.hasPrefix("lock-first") })
        #expect(outcome.stalled.contains { $0.hasPrefix("lock-second") })
        #expect(outcome.stacks.contains("lock-first") && outcome.stacks.contains("lock-second"), "\(outcome.stacks)")
        #expect(outcome.stacks.contains("StallCommand"), "the stacks show where each thread waits")
    }

    @Test("A thread whose count stops moving is stalled once the limit has passed")
    func monitorSeesAStuckThread() {
        var run = MonitoredRun(stallLimit: .seconds(5))
        run.beat("beat 0 a=1 b=1", atSecond: 0)
        run.beat("beat 200 a=1 b=9", atSecond: 4)
        #expect(run.stalledThreads(atSecond: 4).isEmpty)
        run.beat("beat 400 a=1 b=done", atSecond: 6)
        #expect(run.stalledThreads(atSecond: 6) == ["a (stuck at 1 operations)"])
    }

    @Test("Once one thread is stalled, the others that stopped moving since half the limit are named too")
    func monitorNamesEveryStuckThread() {
        var run = MonitoredRun(stallLimit: .seconds(4))
        run.beat("beat 0 a=1 b=0 c=0", atSecond: 0)
        run.beat("beat 200 a=1 b=1 c=1", atSecond: 1)
        #expect(run.stalledThreads(atSecond: 3).isEmpty)
        run.beat("beat 400 a=1 b=1 c=2", atSecond: 3)
        // a has not moved for 4 s (the limit), b for 3 s (over half of it), c for 1 s.
        let both = ["a (stuck at 1 operations)", "b (stuck at 1 operations)"]
        #expect(run.stalledThreads(atSecond: 4) == both)
    }

    @Test("When the beats stop, every unfinished thread is stalled; before the first, after the start-up allowance")
    func monitorSeesSilence() {
        var run = MonitoredRun(stallLimit: .seconds(5))
        #expect(run.stalledThreads(atSecond: 30).isEmpty)
        #expect(run.stalledThreads(atSecond: 61).count == 1)
        run.beat("beat 0 a=1 b=done", atSecond: 61)
        #expect(run.stalledThreads(atSecond: 62).isEmpty)
        #expect(run.stalledThreads(atSecond: 67).count == 2)
        #expect(run.stalledThreads(atSecond: 67).last == "a")
    }

    /// A heartbeat monitor fed as the watchdog feeds it: the stress process's whole output so
    /// far, each time a beat line is added, at seconds after the start.
    private struct MonitoredRun {
        private let start = ContinuousClock.now
        private var monitor: HeartbeatMonitor
        private var output = ""

        init(stallLimit: Duration) {
            monitor = HeartbeatMonitor(stallLimit: stallLimit, startedAt: start)
        }

        mutating func beat(_ line: String, atSecond second: Int) {
            output += line + "\n"
            monitor.observe(output: output, at: start + .seconds(second))
        }

        func stalledThreads(atSecond second: Int) -> [String] {
            monitor.stalledThreads(at: start + .seconds(second))
        }
    }
}
