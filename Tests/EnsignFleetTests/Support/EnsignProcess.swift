import EnsignTestSupport
import Foundation

/// Runs the built `ensign` executable (next to the test bundle) and captures its output.
enum EnsignProcess {
    typealias Result = BuiltExecutable.Result

    static let executable = BuiltExecutable.url(named: "ensign")

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try BuiltExecutable.run("ensign", arguments, environment: environment)
    }
}
