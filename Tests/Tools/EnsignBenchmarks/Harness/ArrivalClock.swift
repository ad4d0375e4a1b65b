import Dispatch
import Ensign
import EnsignSupport

/// Records when an observer ran; the measuring thread waits for the next arrival.
final class ArrivalClock: Sendable {
    private let arrivals = DispatchSemaphore(value: 0)
    private let times = LockedTimes()

    func arrive() {
        times.append(ContinuousClock.now)
        arrivals.signal()
    }

    /// Nanoseconds from `start` to the next arrival.
    func wait(since start: ContinuousClock.Instant, timeout: Duration = .seconds(2)) throws -> Double {
        guard arrivals.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds))) == .success,
            let arrival = times.removeFirst()
        else { throw BenchmarkFailure("the observer did not run within \(timeout)") }
        return Double((arrival - start).nanoseconds)
    }
}

/// The arrival times, guarded by a dispatch queue (the benchmarks do not see the library's lock).
private final class LockedTimes: Sendable {
    private let queue = DispatchQueue(label: "ensign.bench.arrivals")
    nonisolated(unsafe) private var times: [ContinuousClock.Instant] = []
    // nonisolated(unsafe), proven: `times` is only read and written inside `queue.sync`.

    func append(_ time: ContinuousClock.Instant) { queue.sync { times.append(time) } }

    func removeFirst() -> ContinuousClock.Instant? {
        queue.sync { times.isEmpty ? nil : times.removeFirst() }
    }
}
