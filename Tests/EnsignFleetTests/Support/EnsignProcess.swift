import Foundation

/// Runs the built `ensign` executable (next to the test bundle) and captures its output.
enum EnsignProcess {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("ensign")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("ensign")
    }()

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
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

    /// A new temporary definitions directory holding `text` as `app.yaml`; the caller removes it.
    static func definitionsDirectory(_ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ensign-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: directory.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        return directory.path
    }
}
