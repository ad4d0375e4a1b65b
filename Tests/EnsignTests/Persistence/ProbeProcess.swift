import EnsignTestSupport
import Foundation

/// Starts `EnsignTestProbe` (built next to the test bundle) as a real process.
enum ProbeProcess {
    static let executable = BuiltExecutable.url(named: "EnsignTestProbe")

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
