import EnsignTestSupport
import Foundation

/// Runs the built `ensign` executable (next to the test bundle) and captures its output.
enum EnsignProcess {
    typealias Result = BuiltExecutable.Result

    static let executable = BuiltExecutable.url(named: "ensign")

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try BuiltExecutable.run("ensign", arguments, environment: environment)
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
