import Ensign

/// (i) Start-up: a root context from the sample `flags/` directory, as an app creates it.
enum StartupEntries {
    static func group(flagsDirectory: String?) -> BenchmarkGroup {
        let name = "start-up"
        let entryName = "AppContext(configuration:) from flags/"
        guard let flagsDirectory else {
            return BenchmarkGroup(
                name: name,
                kind: .probe(names: [entryName]) { _ in
                    [
                        EntryResult(
                            group: name, id: "start-up", name: entryName, unit: .nanosecondsPerOperation,
                            iterations: 0, samples: [],
                            note: "no flags/ directory here or above; pass --flags DIR")
                    ]
                })
        }
        let configuration = AppContextConfiguration(definitionsDirectory: flagsDirectory, environment: "development")
        return .timed(
            name,
            [
                Benchmark(
                    id: "start-up", name: entryName, iterations: Iterations(full: 50, quick: 5),
                    note: "reads, validates and resolves \(flagsDirectory) for the development environment"
                ) { count in
                    for _ in 0..<count { blackHole(try AppContext(configuration: configuration)) }
                }
            ])
    }
}
