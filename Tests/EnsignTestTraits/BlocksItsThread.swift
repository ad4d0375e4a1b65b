import Testing

/// Runs a test that blocks its thread on threads of its own, not on the concurrency runtime's.
///
/// Give it to every test that holds its thread for more than a moment: one that waits for a
/// subprocess, a socket or a sleep, or computes for a second or more. Such tests on the
/// runtime's few threads (as many as cores) starve everything else that needs them: on a
/// machine half as fast, they held both threads for the first 114 s of the run, and on CI a
/// delivery to an observer on an actor, waiting behind them, timed out. Here they take turns on
/// ``BlockingWorkExecutor``'s threads. A `@MainActor` test is unaffected: it runs on the main
/// actor either way.
///
/// A test waits here for its turn inside its time limit (`.timeLimit` counts from before the
/// trait's scope), so a suite with a time limit that runs one test at a time, such as the etcd
/// integration suite, goes without.
///
/// ```swift
/// @Test("A killed writer leaves the old file or the new one", .blocksItsThread)
/// func killedWriter() throws { … }
/// ```
public struct BlocksItsThread: TestTrait, TestScoping {
    /// Runs the test with ``BlockingWorkExecutor`` as its task's preferred executor.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A synchronous test function, and a nonisolated async one between its suspensions,
        // run on the preferred executor.
        try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlocksItsThread {
    /// Runs the test on threads of its own, not the concurrency runtime's: see ``BlocksItsThread``.
    public static var blocksItsThread: Self { Self() }
}
