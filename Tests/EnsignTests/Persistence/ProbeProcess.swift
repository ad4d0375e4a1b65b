import Foundation

/// Starts `EnsignTestProbe` (built next to the test bundle) as a real process.
enum ProbeProcess {
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("EnsignTestProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("EnsignTestProbe")
    }()

    /// Starts the probe with `arguments`; its standard output goes to `output`.
    static func start(_ arguments: [String], output: Pipe) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
