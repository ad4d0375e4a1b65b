import EnsignSupport
import EnsignTestSupport
import Foundation
import Synchronization
import Testing

@testable import Ensign

/// What the tests of observers on an actor share: writer threads, flags, a barrier on the main
/// actor, an actor that collects what it is given, and a serial executor on a thread of its own.
enum Hopping {
    /// How long a test waits for a delivery before it fails: long, because a handler on an
    /// actor needs a thread of the concurrency runtime, which the whole suite, run in parallel
    /// on two cores, can keep busy for many seconds. A wait ends as soon as its condition holds.
    static let patience: Duration = .seconds(120)

    /// The key the tests race on: an int with no bounds, so every write can be a new value.
    static let counter = FlagKey("race.counter", default: -1)
    /// A second key, for handlers that write to the context.
    static let echo = FlagKey("race.echo", default: -1)

    /// A context with the two keys at 0.
    static func context() -> AppContext { AppContext(values: ["race.counter": 0, "race.echo": 0]) }

    /// Runs `body(index)` on `count` threads of their own at once (not on the concurrency
    /// runtime's few threads, which a blocked writer would hold), and returns once all are done.
    static func onThreads(
        _ count: Int, fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (Int) -> Void
    ) async {
        let finished = Recorder<Int>()
        for index in 0..<count {
            Thread {
                body(index)
                finished.record(index)
            }.start()
        }
        // The watchdog: a deadlocked thread fails the test instead of hanging it.
        let done = await waitUntil("\(count) threads to finish", timeout: Hopping.patience, fileID: fileID, line: line)
        {
            () async in finished.count == count
        }
        #expect(done, "threads deadlocked or did not finish")
    }

    /// Writes 300 counter values from each of two threads, for a handler that echoes each one
    /// into `echo`; returns the last value committed, once the echo holds it.
    static func writeCountersAwaitingTheirEcho(
        _ context: AppContext, fileID: String = #fileID, line: Int = #line,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        await onThreads(2) { writer in
            for index in 1...300 { try? context.setOverride(counter, to: writer * 1_000 + index) }
        }
        let last = context[counter]
        let echoed = await waitUntil("the echo of the last write", timeout: patience, fileID: fileID, line: line) {
            () async in context[echo] == last
        }
        #expect(echoed)
        return last
    }

    /// A fresh ``context()`` with an observer on the main actor recording each new counter
    /// value, for as long as the token is kept.
    @MainActor
    static func counterRecordedOnMainActor() -> (
        context: AppContext, delivered: Recorder<Int>, token: ObservationToken
    ) {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        let token = context.observe(counter, on: .mainActor) { delivered.record($0) }
        return (context, delivered, token)
    }

    /// Returns once the main actor has run a job queued after everything queued so far: a
    /// hopped observer's drain job, if one is queued, has then run.
    @MainActor
    static func mainActorBarrier() async {
        let context = Hopping.context()
        let arrived = Recorder<Int>()
        let token = context.observe(counter, label: "barrier", on: .mainActor) { arrived.record($0) }
        try? context.setOverride(counter, to: 1)
        #expect(await waitUntil("the barrier to arrive", timeout: Hopping.patience) { () async in arrived.count == 1 })
        token.cancel()
    }
}

/// A flag any thread sets and reads.
final class SharedFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set(_ isSet: Bool = true) { value.store(isSet, ordering: .releasing) }
}

/// An actor that keeps what its observers are given, and counts calls that overlapped.
actor DeliveryCollector {
    var values: [Int] = []
    var batches: [ChangeBatch] = []
    var overlaps = 0
    private var isRunning = false

    /// Records `value`, noting whether another call was running (it never should).
    func record(_ value: Int) {
        if isRunning { overlaps += 1 }
        isRunning = true
        values.append(value)
        isRunning = false
    }
}

/// A serial executor that runs its jobs one at a time on a thread of its own, so a test can
/// tell that a handler ran there.
final class ThreadExecutor: SerialExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var isStopped = false
    }

    private let state = LockedCondition(State())
    private let runningThread = LockedState<UInt?>(nil)

    init() {
        Thread { [self] in run() }.start()
    }

    /// The executor's thread, once it has started.
    var thread: UInt? { runningThread.withLock { $0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.update { $0.jobs.append(job) }
    }

    /// Ends the thread once the queued jobs have run.
    func stop() { state.update { $0.isStopped = true } }

    private func run() {
        runningThread.withLock { $0 = ThreadIdentity.current }
        while let job = state.wait(
            until: { !$0.jobs.isEmpty || $0.isStopped }, then: { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() })
        {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}

/// An actor whose jobs run on a ``ThreadExecutor``: the way to put observers on an executor.
actor ExecutorBoundCollector {
    let executor: ThreadExecutor
    var values: [Int] = []
    var threads: Set<UInt> = []

    init(executor: ThreadExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}
