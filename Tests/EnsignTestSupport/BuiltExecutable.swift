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
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = url(named: name)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["NO_COLOR"] = "1"
        processEnvironment.merge(environment) { _, new in new }
        process.environment = processEnvironment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }
}
