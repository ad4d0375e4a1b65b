import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far one thread has got: operations completed, and whether it has finished.
///
/// Relaxed atomics, one per thread, so counting adds no lock (and no happens-before edge
/// that could hide a data race from the thread sanitizer) between the threads under test.
final class Progress: Sendable {
    let name: String
    private let operations = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)
    private let waiting: Atomic<Bool>

    /// A thread's progress; a `waiting` one (the main thread while it joins the others)
    /// shows as `name=waiting` and is not expected to move until ``start()``.
    init(name: String, waiting: Bool = false) {
        self.name = name
        self.waiting = Atomic(waiting)
    }

    func start() {
        waiting.store(false, ordering: .relaxed)
    }

    func step() {
        operations.add(1, ordering: .relaxed)
    }

    func finish() {
        finished.store(true, ordering: .relaxed)
    }

    var count: Int { operations.load(ordering: .relaxed) }

    /// `name=count`, `name=waiting`, or `name=done` once finished: one field of a heartbeat line.
    var field: String {
        if finished.load(ordering: .relaxed) { return "\(name)=done" }
        return waiting.load(ordering: .relaxed) ? "\(name)=waiting" : "\(name)=\(count)"
    }
}

/// Prints a `beat` line with every thread's progress five times a second, so the test that
/// runs this process can tell a stalled thread from a slow one and stop it with its stacks.
final class Heartbeat: Sendable {
    private let isRunning = Atomic<Bool>(true)
    private let stopped = DispatchSemaphore(value: 0)

    init(_ threads: [Progress]) {
        _ = StressThread(name: "heartbeat") { [self] in
            let start = ContinuousClock.now
            while isRunning.load(ordering: .relaxed) {
                let elapsed = (ContinuousClock.now - start).components
                let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
                say((["beat", "\(milliseconds)"] + threads.map(\.field)).joined(separator: " "))
                usleep(200_000)
            }
            stopped.signal()
        }
    }

    /// Stops the beats; returns once the last one is printed.
    func stop() {
        isRunning.store(false, ordering: .relaxed)
        stopped.wait()
    }
}
