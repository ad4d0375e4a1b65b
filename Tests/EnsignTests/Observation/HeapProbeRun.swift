import EnsignTestSupport

/// Runs a scenario of `EnsignTestProbe heap` in a process of its own, where no other test's
/// allocations blur the heap figure.
enum HeapProbeRun {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The heap bytes each unit of `scenario` left behind after warm-up, on average.
    static func retainedBytesPerUnit(scenario: String, count: Int) throws -> Int {
        let scratch = try TemporaryDirectory()
        let result = try BuiltExecutable.run("EnsignTestProbe", ["heap", scratch.path, scenario, String(count)])
        guard result.status == 0 else {
            throw Failure(description: "the probe exited with \(result.status): \(result.output)\(result.errors)")
        }
        // "retained BYTES per UNIT"
        guard let line = result.output.split(separator: "\n").first(where: { $0.hasPrefix("retained ") }),
            let bytes = Int(line.split(separator: " ")[1])
        else {
            throw Failure(description: "no figure in the probe's output: \(result.output)")
        }
        return bytes
    }
}
