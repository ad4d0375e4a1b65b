import Foundation

/// A few threads of their own for tests that block: the executor behind ``BlocksItsThread``.
///
/// Swift Testing runs a synchronous test on one of the concurrency runtime's threads, of which
/// there are as many as cores (two on CI). A test that waits for a subprocess or a socket, or
/// computes for seconds, holds that thread meanwhile; two such tests at once stop every other
/// job in the process: async tests, and the jobs that deliver changes to observers on actors,
/// which then time out. Tests that block run here instead, two at a time, and leave the
/// runtime's threads to the rest. (Three at a time made the suite no faster on two cores.)
final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable, proven: `jobs` is private and only read or written between
    // `condition.lock()` and `condition.unlock()`; every other stored property is a `let` of a
    // Sendable type.

    /// The executor the trait uses; its threads start when it is first used and live as long
    /// as the test process.
    static let shared = BlockingWorkExecutor(threadCount: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threadCount: Int) {
        for index in 0..<threadCount {
            let thread = Thread { [self] in runJobs() }
            thread.name = "test-blocking-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
