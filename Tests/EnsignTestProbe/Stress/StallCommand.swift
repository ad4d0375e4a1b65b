import Dispatch
import Ensign

/// `EnsignTestProbe stall`: two threads that take two locks in opposite orders and deadlock
/// for certain, with a heartbeat, so the watchdog's own test sees a real stall.
enum StallCommand {
    static func run() -> Never {
        let (first, second) = (LockedState(0), LockedState(0))
        let (holdsFirst, holdsSecond) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let threads = [Progress(name: "lock-first"), Progress(name: "lock-second")]
        _ = Heartbeat(threads)
        _ = StressThread(name: "lock-first") {
            first.withLock { _ in
                threads[0].step()
                holdsFirst.signal()
                holdsSecond.wait()
                second.withLock { $0 += 1 }
            }
        }
        _ = StressThread(name: "lock-second") {
            second.withLock { _ in
                threads[1].step()
                holdsSecond.signal()
                holdsFirst.wait()
                first.withLock { $0 += 1 }
            }
        }
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}
