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
        let start = ContinuousClock.now
        var monitor = HeartbeatMonitor(stallLimit: .seconds(5), startedAt: start)
        monitor.observe(output: "beat 0 a=1 b=1\n", at: start)
        monitor.observe(output: "beat 0 a=1 b=1\nbeat 200 a=1 b=9\n", at: start + .seconds(4))
        #expect(monitor.stalledThreads(at: start + .seconds(4)).isEmpty)
        monitor.observe(output: "beat 0 a=1 b=1\nbeat 200 a=1 b=9\nbeat 400 a=1 b=done\n", at: start + .seconds(6))
        #expect(monitor.stalledThreads(at: start + .seconds(6)) == ["a (stuck at 1 operations)"])
    }

    @Test("Once one thread is stalled, the others that stopped moving since half the limit are named too")
    func monitorNamesEveryStuckThread() {
        let start = ContinuousClock.now
        var monitor = HeartbeatMonitor(stallLimit: .seconds(4), startedAt: start)
        monitor.observe(output: "beat 0 a=1 b=0 c=0\n", at: start)
        monitor.observe(output: "beat 0 a=1 b=0 c=0\nbeat 200 a=1 b=1 c=1\n", at: start + .seconds(1))
        #expect(monitor.stalledThreads(at: start + .seconds(3)).isEmpty)
        let lines = "beat 0 a=1 b=0 c=0\nbeat 200 a=1 b=1 c=1\nbeat 400 a=1 b=1 c=2\n"
        monitor.observe(output: lines, at: start + .seconds(3))
        // a has not moved for 4 s (the limit), b for 3 s (over half of it), c for 1 s.
        let both = ["a (stuck at 1 operations)", "b (stuck at 1 operations)"]
        #expect(monitor.stalledThreads(at: start + .seconds(4)) == both)
    }

    @Test("When the beats stop, every unfinished thread is stalled; before the first, after the start-up allowance")
    func monitorSeesSilence() {
        let start = ContinuousClock.now
        var monitor = HeartbeatMonitor(stallLimit: .seconds(5), startedAt: start)
        #expect(monitor.stalledThreads(at: start + .seconds(30)).isEmpty)
        #expect(monitor.stalledThreads(at: start + .seconds(61)).count == 1)
        monitor.observe(output: "beat 0 a=1 b=done\n", at: start + .seconds(61))
        #expect(monitor.stalledThreads(at: start + .seconds(62)).isEmpty)
        #expect(monitor.stalledThreads(at: start + .seconds(67)).count == 2)
        #expect(monitor.stalledThreads(at: start + .seconds(67)).last == "a")
    }
}
