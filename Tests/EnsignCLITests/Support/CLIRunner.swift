import EnsignTestSupport
import Foundation

/// Runs the built `ensign` executable as a real process and captures what it prints.
enum CLIRunner {
    typealias Result = BuiltExecutable.Result

    /// The package root, for paths such as `flags/`.
    static let packageRoot = BuiltExecutable.packageRoot

    /// The `ensign` binary next to the test bundle (the same build directory).
    static let executable = BuiltExecutable.url(named: "ensign")

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try BuiltExecutable.run("ensign", arguments, environment: environment)
    }

    /// Writes `text` to a fresh temporary file and returns its path. The directory is left for
    /// the system to clean, since the tests read the file after this returns.
    static func temporaryFile(_ text: String, name: String = "file.yaml") throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ensign-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
