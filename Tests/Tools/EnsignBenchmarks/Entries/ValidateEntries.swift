#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ensign validate` on a generated 10,000-flag file: the wall time of the release process,
/// start to exit, as an operator's CI job sees it, against a C process that only scans the
/// same file with libyaml (`libyaml-scan`, built with the benchmarks). Issue 16: at most 2.5×
/// the scan (the first target, well under a second, is long met).
enum ValidateEntries {
    private static let groupName = "validate, 10,000 flags"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: ["validate"], run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        let executable = BuiltTool.path("ensign")
        let scanner = BuiltTool.path("libyaml-scan")
        var samples: [Double] = []
        var scanSamples: [Double] = []
        if access(executable, X_OK) == 0 {
            let directory = try TemporaryFiles.directory()
            defer { TemporaryFiles.remove(directory) }
            let file = directory + "/flags/catalog.yaml"
            try TemporaryFiles.write(file, GeneratedDefinitions.manyFlags(count: 10_000))
            let hasScanner = access(scanner, X_OK) == 0
            for _ in 0..<settings.rounds {
                // Alternated in each round, so that other load on the machine falls on both alike.
                if hasScanner {
                    scanSamples.append(try BuiltTool.wallTime(scanner, [file], what: "libyaml-scan"))
                }
                samples.append(try BuiltTool.wallTime(executable, ["validate", file], what: "ensign validate"))
            }
        }
        return [
            .processWallTime(
                group: groupName, id: "libyaml-scan", name: "C `libyaml-scan FILE` process, wall time",
                samples: scanSamples,
                missing: "the release `libyaml-scan` was not found next to the benchmarks (scripts/bench builds it)",
                measured: "a C process reading the same file with yaml_parser_parse, building nothing: the floor"),
            .processWallTime(
                group: groupName, id: "validate", name: "`ensign validate FILE` process, wall time", samples: samples,
                reference: "libyaml-scan", target: .ratio(atMost: 2.5),
                missing: "the release `ensign` was not found next to the benchmarks",
                measured:
                    "the release `ensign validate` on the generated 10,000-flag file, start to exit, once per round"),
        ]
    }
}
