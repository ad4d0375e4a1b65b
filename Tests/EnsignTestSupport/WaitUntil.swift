import Foundation

/// Waits until `condition` holds, re-checking it every `interval`, for at most `timeout`;
/// returns whether it held. The one wait the test targets share.
///
/// ```swift
/// #expect(waitUntil("the server to drop the connection") { server.connectionCount == 0 })
/// ```
///
/// It polls rather than subscribing to something, so that any condition — a count, a status, a
/// file, another process — can be waited for the same way; the interval is short enough that
/// the wait costs a test next to nothing when the condition comes true early. The condition is
/// checked once more at the deadline, so a slow machine that wakes late still sees the last
/// state. On a timeout it says on standard error what it waited for, how long and from where:
/// an expectation on the result alone would say only that `false` came back.
///
/// - Parameters:
///   - what: What is waited for, as a phrase ("the status to be degraded"), for the timeout report.
///   - timeout: The longest wait.
///   - interval: How long to sleep between checks.
///   - condition: Checked on the calling thread; it may throw, which ends the wait.
///
/// Not for async code, where it would hold a thread of the concurrency runtime while it sleeps:
/// there, pass an `async` closure to have the async form.
@available(*, noasync, message: "in async code, pass an async closure to wait with the async form")
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
    pollingEvery interval: Duration = .milliseconds(2),
    fileID: String = #fileID, line: Int = #line, _ condition: () throws -> Bool
) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: WaitReport.seconds(min(interval, deadline - clock.now)))
    }
    if try condition() { return true }
    WaitReport.gaveUp(on: what(), timeout: timeout, cancelled: false, fileID: fileID, line: line)
    return false
}

/// The asynchronous form of `waitUntil`, for async tests: it sleeps with `Task.sleep`, so a
/// waiting test never holds one of the few threads the concurrency runtime has while what it
/// waits for may need one. Pass an `async` closure (`{ () async in … }`): given a plain closure,
/// the compiler picks the synchronous form, which is unavailable in async code. It runs on the
/// caller's actor (`isolation`), so a `@MainActor` test can wait on main-actor state.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
    pollingEvery interval: Duration = .milliseconds(2),
    fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    // A cancelled task (a test past its time limit) stops waiting at once rather than spinning on
    // a `Task.sleep` that no longer sleeps; the report then says it was cancelled, not timed out.
    while clock.now < deadline, !Task.isCancelled {
        if try await condition() { return true }
        try? await Task.sleep(for: min(interval, deadline - clock.now))
    }
    if try await condition() { return true }
    let cancelled = Task.isCancelled
    WaitReport.gaveUp(on: what(), timeout: timeout, cancelled: cancelled, fileID: fileID, line: line)
    return false
}

/// What both forms of `waitUntil` share: the report when they give up, and the interval in seconds.
enum WaitReport {
    /// Writes the report of a wait that ended without its condition to standard error, where
    /// `swift test` shows it next to the failed expectation.
    static func gaveUp(on what: String, timeout: Duration, cancelled: Bool, fileID: String, line: Int) {
        let why = cancelled ? "was cancelled (timeout \(timeout))" : "timed out after \(timeout)"
        let report = "waitUntil \(why) waiting for \(what) (\(fileID):\(line))\n"
        FileHandle.standardError.write(Data(report.utf8))
    }

    /// `duration` in seconds, for `Thread.sleep`.
    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(0, TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }
}
