import EnsignTestSupport
import Foundation

/// Runs `EnsignTestProbe` with a heartbeat (a stress scenario) and watches it: when a thread
/// stops making progress, the process is stopped with every thread's stack, so a deadlock
/// fails its test within a bounded time instead of hanging the run.
enum StressWatchdog {
    /// How a watched process ended.
    struct Outcome {
        /// The exit status, or `nil` when the watchdog stopped the process.
        var status: Int32?
        var output: String
        var errors: String
        /// The threads that made no progress (empty unless the watchdog stopped the process).
        var stalled: [String]
        /// Every thread's stack when the process was stopped.
        var stacks: String
        /// The last heartbeat line, for the report.
        var lastBeat: String? {
            output.split(separator: "\n").last { $0.hasPrefix("beat ") }.map(String.init)
        }
    }

    /// Runs the probe with `arguments` and watches its heartbeat.
    ///
    /// - Parameters:
    ///   - stallLimit: how long a thread may make no progress. Generous, because a shared
    ///     two-core machine under the thread sanitizer is slow; a deadlock never recovers.
    ///   - timeLimit: the whole run's bound, stalls apart.
    static func run(
        _ arguments: [String], stallLimit: Duration = .seconds(10), timeLimit: Duration = .seconds(300)
    ) throws -> Outcome {
        let directory = try TemporaryDirectory()
        let outputPath = try directory.write("stdout", "")
        let errorsPath = try directory.write("stderr", "")
        let process = try BuiltExecutable.start(
            executable: BuiltExecutable.url(named: "EnsignTestProbe"), arguments,
            environment: ThreadStacks.backtraceEnvironment, output: outputPath, errors: errorsPath)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let start = ContinuousClock.now
        var monitor = HeartbeatMonitor(stallLimit: stallLimit, startedAt: start)
        while process.isRunning {
            usleep(100_000)
            let now = ContinuousClock.now
            monitor.observe(output: read(outputPath), at: now)
            var stalled = monitor.stalledThreads(at: now)
            if stalled.isEmpty, now - start > timeLimit { stalled = ["the whole run (longer than \(timeLimit))"] }
            guard !stalled.isEmpty, process.isRunning else { continue }
            let stacks = stop(process, errors: errorsPath)
            return Outcome(
                status: nil, output: read(outputPath), errors: read(errorsPath), stalled: stalled, stacks: stacks)
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: read(outputPath), errors: read(errorsPath), stalled: [],
            stacks: "")
    }

    /// Takes every thread's stack from a stalled process, then kills it.
    private static func stop(_ process: Process, errors: String) -> String {
        switch ThreadStacks.fromDebugger(pid: process.processIdentifier) {
        case .success(let stacks):
            BuiltExecutable.waitForExitOrKill(process, timeout: .zero)
            return stacks
        case .failure(let unavailable):
            kill(process.processIdentifier, SIGABRT)
            BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(30))
            let report = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            return "(no stacks from gdb: \(unavailable); the Swift runtime's crash report on SIGABRT follows)\n"
                + report
        }
    }
}
