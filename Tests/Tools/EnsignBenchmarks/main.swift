// The benchmarks behind DESIGN.md's performance table; `scripts/bench` builds and runs them
// in release. See `Options.usage` for the command line.

import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses the command line, runs the selected groups and prints the report; returns the exit status.
func runBenchmarks() -> Int32 {
    let options: Options
    switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Options.usage)
        return 0
    case .usageError(let message):
        printError("error: \(message)\n\n\(Options.usage)")
        return 2
    case .run(let parsed):
        options = parsed
    }
    do {
        if let directory = options.memoryProbeDirectory {
            print(try MemoryEntries.probe(directory: directory))
            return 0
        }
        let settings = RunSettings(
            rounds: options.rounds ?? (options.isQuick ? 3 : 7), isQuick: options.isQuick, filters: options.filters,
            flagsDirectory: options.resolvedFlagsDirectory())
        if AllocationCounter.count != nil, !AllocationCounter.isWorking {
            printError("warning: the allocation counter is linked but counted nothing; allocations are not reported")
        }
        let groups =
            [
                StaticReadEntries.group(), HookEntries.group(), EvaluationCountEntries.group(),
                EvaluationEntries.group(), OverrideEntries.group(),
                RequestContextEntries.group(), ObserverFanOutEntries.group(), LoadEntries.group(),
                MemoryEntries.group(),
                StartupEntries.group(flagsDirectory: settings.flagsDirectory),
            ] + [ValidateEntries.group()] + LatencyEntries.groups() + [
                FleetEntries.group(), TelemetryEntries.group(), ServeEntries.handlerGroup(), ServeEntries.group(),
                ServeEntries.fleetGroup(),
                RemoteEntries.group(),
            ]
        let runner = BenchmarkRunner(settings: settings)
        let selected = groups.filter(runner.selects)
        guard !selected.isEmpty else {
            printError("error: no benchmark matches \(options.filters.map { "'\($0)'" }.joined(separator: ", "))")
            return 2
        }
        var results: [EntryResult] = []
        for group in selected { results += try runner.run(group) }
        let report = Report(results: results, settings: settings, allocationCounting: AllocationCounter.isWorking)
        print(options.printsJSON ? report.json.jsonText : report.table)
        return 0
    } catch {
        printError("error: \(error)")
        return 1
    }
}

exit(runBenchmarks())
