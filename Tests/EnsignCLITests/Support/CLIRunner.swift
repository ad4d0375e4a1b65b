import Foundation
import Testing

/// Runs the built `ensign` executable as a real process and captures what it prints.
struct CLIRunner {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The package root, for paths such as `flags/`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `ensign` binary next to the test bundle (the same build directory).
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the tests run from `<build>/EnsignPackageTests.xctest`; on macOS from inside a bundle.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("ensign")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/ensign")
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
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

    /// Writes `text` to a fresh temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "file.yaml") throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ensign-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
