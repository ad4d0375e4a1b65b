import Foundation

/// Runs executables of this package (`ensign`, the test probes) as real processes, found
/// next to the test bundle in the same build directory.
public enum BuiltExecutable {
    /// What a finished process printed and how it exited.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error.
        public var errors: String

        /// A result put together by a caller that ran the process itself (with ``start(executable:_:environment:output:errors:)``).
        public init(status: Int32, output: String, errors: String) {
            (self.status, self.output, self.errors) = (status, output, errors)
        }
    }

    /// The package root, for paths such as `flags/`.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable `name`: next to the running test binary (Linux puts tests in the
    /// build directory), or in `.build/debug`.
    public static func url(named name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Runs `name` with `arguments` in the package root, with `NO_COLOR` set, and waits for it.
    ///
    /// Output goes to temporary files rather than pipes, so a large standard error cannot
    /// block the child while the test waits on standard output, and a process that inherits a
    /// descriptor cannot keep the test waiting. A child still running after `timeout` is
    /// killed and the call throws, so a hung command fails its test instead of the whole run.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(120)
    ) throws -> Result {
        try run(executable: url(named: name), arguments, environment: environment, timeout: timeout)
    }

    /// Runs any executable the way ``run(_:_:environment:timeout:)`` runs one of this package's.
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(120)
    ) throws -> Result {
        let directory = try TemporaryDirectory()
        let outputPath = try directory.write("stdout", "")
        let errorsPath = try directory.write("stderr", "")
        let process = try start(
            executable: executable, arguments, environment: environment, output: outputPath, errors: errorsPath)
        guard waitForExitOrKill(process, timeout: timeout) else {
            throw TimedOut(
                command: ([executable.lastPathComponent] + arguments).joined(separator: " "), timeout: timeout)
        }
        return Result(
            status: process.terminationStatus,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "")
    }

    /// Starts any executable the way ``run(executable:_:environment:timeout:)`` does, with its
    /// standard output and standard error going to the files `output` and `errors` (which
    /// exist), and returns the running process, for a caller that watches it while it runs.
    public static func start(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], output: String, errors: String
    ) throws -> Process {
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let errorsHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["NO_COLOR"] = "1"
        processEnvironment.merge(environment) { _, new in new }
        process.environment = processEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputHandle
        process.standardError = errorsHandle
        try process.run()
        try outputHandle.close()
        try errorsHandle.close()
        return process
    }

    /// Waits up to `timeout` for `process` to end; if it has not, kills it (SIGKILL) and waits
    /// briefly for that. Returns whether it ended on its own in time.
    @discardableResult
    public static func waitForExitOrKill(_ process: Process, timeout: Duration) -> Bool {
        if waitForExit(of: process, timeout: timeout) { return true }
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(of: process, timeout: .seconds(5))
        return false
    }

    /// Waits up to `timeout` for `process` to end; returns whether it did.
    public static func waitForExit(of process: Process, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// A command that did not finish in time.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line.
        public var command: String
        /// How long it was given.
        public var timeout: Duration
        /// Creates the error for `command`, given `timeout`.
        public init(command: String, timeout: Duration) {
            self.command = command
            self.timeout = timeout
        }

        /// Says which command hung and for how long.
        public var description: String { "'\(command)' did not finish within \(timeout); it was killed" }
    }
}
