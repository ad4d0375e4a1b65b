import Dispatch
import Ensign
import EnsignSupport

/// `EnsignTestProbe stall`: two threads that take two locks in opposite orders and deadlock
/// for certain, with a heartbeat, so the watchdog's own test sees a real stall.
enum StallCommand {
    static func run() -> Never {
        let (first, second) = (LockedState(0), LockedState(0))
        let (holdsFirst, holdsSecond) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let threads = [Progress(name: "lock-first"), Progress(name: "lock-second")]
        _ = Heartbeat(threads)
        lockInTurn(first, then: second, threads[0], saying: holdsFirst, after: holdsSecond)
        lockInTurn(second, then: first, threads[1], saying: holdsSecond, after: holdsFirst)
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }

    /// A thread named after `progress` that takes `held`, says so, waits until the other
    /// thread holds its lock, and then takes `wanted`, which that thread holds.
    private static func lockInTurn(
        _ held: LockedState<Int>, then wanted: LockedState<Int>, _ progress: Progress,
        saying holds: DispatchSemaphore, after otherHolds: DispatchSemaphore
    ) {
        _ = StressThread(name: progress.name) {
            held.withLock { _ in
                progress.step()
                holds.signal()
                otherHolds.wait()
                wanted.withLock { $0 += 1 }
            }
        }
    }
}
