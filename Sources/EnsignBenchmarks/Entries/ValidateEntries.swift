#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ensign validate` on a generated 10,000-flag file: the wall time of the release process,
/// start to exit, as an operator's CI job sees it (issue target: well under a second).
enum ValidateEntries {
    private static let groupName = "validate, 10,000 flags"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: ["validate"], run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        let executable = BuiltTool.path("ensign")
        var samples: [Double] = []
        if access(executable, X_OK) == 0 {
            let directory = try TemporaryFiles.directory()
            defer { TemporaryFiles.remove(directory) }
            let file = directory + "/flags/catalog.yaml"
            try TemporaryFiles.write(file, GeneratedDefinitions.manyFlags(count: 10_000))
            for _ in 0..<settings.rounds {
                let start = ContinuousClock.now
                let status = try BuiltTool.run(executable, ["validate", file])
                guard status == 0 else { throw BenchmarkFailure("ensign validate exited with \(status)") }
                samples.append(Double((ContinuousClock.now - start).nanoseconds))
            }
        }
        return [
            EntryResult(
                group: groupName, id: "validate", name: "`ensign validate FILE` process, wall time",
                unit: .nanosecondsPerOperation, iterations: 1, samples: samples,
                target: .time(atMostNanoseconds: 1_000_000_000),
                note: samples.isEmpty
                    ? "the release `ensign` was not found next to the benchmarks"
                    : "the release `ensign validate` on the generated 10,000-flag file, start to exit, once per round")
        ]
    }
}
