import EnsignTestSupport
import Foundation

/// Runs `EnsignControlProbe` (built next to the test bundle) and captures what it prints.
enum ControlProbe {
    /// Runs the probe to completion; its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try BuiltExecutable.run("EnsignControlProbe", arguments)
        return (result.status, result.output)
    }
}
