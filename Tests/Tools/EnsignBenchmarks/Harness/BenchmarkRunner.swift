#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs groups of entries: a warm-up call each, one call with the allocation counter, then
/// `rounds` timed calls per entry, interleaved across the group's entries.
struct BenchmarkRunner {
    var settings: RunSettings

    /// Whether `group` has anything the filters select.
    func selects(_ group: BenchmarkGroup) -> Bool {
        settings.filters.isEmpty || group.searchableNames.contains(where: matchesFilter)
    }

    private func matchesFilter(_ name: String) -> Bool {
        settings.filters.contains { name.lowercased().contains($0.lowercased()) }
    }

    func run(_ group: BenchmarkGroup) throws -> [EntryResult] {
        printError("\(group.name)…")
        switch group.kind {
        case .timed(let benchmarks): return try runTimed(selected(benchmarks, group: group), group: group.name)
        case .probe(_, let run): return EntryResult.resolvingRatios(try run(settings))
        }
    }

    /// The entries to run: all when the group's name matches, else those matching and the
    /// references they are compared with.
    private func selected(_ benchmarks: [Benchmark], group: BenchmarkGroup) -> [Benchmark] {
        guard !settings.filters.isEmpty, !matchesFilter(group.name) else { return benchmarks }
        var wanted = Set(benchmarks.filter { matchesFilter($0.id) || matchesFilter($0.name) }.map(\.id))
        var grew = true
        while grew {
            let references = benchmarks.filter { wanted.contains($0.id) }.compactMap(\.reference)
            grew = !Set(references).isSubset(of: wanted)
            wanted.formUnion(references)
        }
        return benchmarks.filter { wanted.contains($0.id) }
    }

    private func runTimed(_ benchmarks: [Benchmark], group: String) throws -> [EntryResult] {
        var results: [EntryResult] = []
        for benchmark in benchmarks {
            let iterations = benchmark.iterations.count(quick: settings.isQuick)
            let small = max(1, iterations / 10)
            try benchmark.body(small)  // warm-up: builds lazy fixtures, fills caches
            let allocations = try AllocationCounter.allocationsPerIteration(iterations: small, benchmark.body)
            results.append(
                EntryResult(
                    group: group, id: benchmark.id, name: benchmark.name, unit: .nanosecondsPerOperation,
                    iterations: iterations, samples: [], allocationsPerOperation: allocations,
                    reference: benchmark.reference, target: benchmark.target, note: benchmark.note))
        }
        let clock = ContinuousClock()
        for round in 1...settings.rounds {
            printError("  round \(round)/\(settings.rounds)")
            for (index, benchmark) in benchmarks.enumerated() {
                let iterations = results[index].iterations
                let start = clock.now
                try benchmark.body(iterations)
                let elapsed = clock.now - start
                results[index].samples.append(Self.nanoseconds(elapsed) / Double(iterations))
            }
        }
        for benchmark in benchmarks {
            if let problem = benchmark.verify?() {
                throw BenchmarkFailure("\(group) / \(benchmark.name): check failed: \(problem)")
            }
        }
        return EntryResult.resolvingRatios(results)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Writes `message` and a newline to standard error (progress and problems; the report goes to
/// standard output).
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
