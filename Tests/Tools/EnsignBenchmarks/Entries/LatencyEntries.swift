import Ensign
import EnsignControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Latencies from a cause to the app's observer: a control client's `set`, one `ensign toggle`
/// process, and a deployment file edit with 10,000 flags loaded. Each round measures many
/// events and reports their p50 and p99; the table's min and median are over the rounds.
enum LatencyEntries {
    static let controlNames = ["control p50", "control p99", "ensign toggle"]
    static let fileNames = ["file p50", "file p99"]

    static func groups() -> [BenchmarkGroup] {
        [
            BenchmarkGroup(name: "live toggle (control socket)", kind: .probe(names: controlNames, run: runControl)),
            BenchmarkGroup(name: "file change, 10,000 flags", kind: .probe(names: fileNames, run: runFileChange)),
        ]
    }

    // MARK: Control socket

    private static func runControl(_ settings: RunSettings) throws -> [EntryResult] {
        let directory = try TemporaryFiles.directory()
        defer { TemporaryFiles.remove(directory) }
        // The processes toggle another key, so their changes never reach the measured observer.
        let context = try AppContext(
            definitions: "flags:\n  demo.enabled: { default: false }\n  demo.process: { default: false }\n")
        var options = ControlServerOptions(appName: "bench", runtimeDirectory: directory)
        options.log = { _ in }
        let server = try ControlServer.start(context: context, options: options)
        defer { server.stop() }
        let client = try ControlClient.connect(to: .socket(server.socketPath))
        defer { client.close() }
        let arrivals = ArrivalClock()
        let token = context.observe(FlagKey("demo.enabled", default: false), label: "bench") { _ in arrivals.arrive() }
        defer { token.cancel() }
        let toggles = settings.isQuick ? 200 : 1_000
        var processTimes: [Double] = []
        let rounds = try LatencyRounds(rounds: settings.rounds / 2, events: toggles) {
            let start = ContinuousClock.now
            _ = try client.toggle("demo.enabled")
            return [try arrivals.wait(since: start)]
        } afterEachRound: {
            processTimes.append(try toggleProcessTime(socket: server.socketPath, runs: settings.isQuick ? 3 : 10))
        }
        let group = "live toggle (control socket)"
        return EntryResult.latencyPercentiles(
            group: group, id: "control", name: "client set → observer", events: toggles, p50: rounds.p50,
            p99: rounds.p99, target: .time(atMostNanoseconds: 1_000_000, aim: 250_000),
            note: "p50 over \(toggles) toggles through a ControlClient: from sending `toggle` to the observer")
            + [
                .processWallTime(
                    group: group, id: "ensign toggle", name: "one `ensign toggle` process, wall time",
                    samples: processTimes, missing: "the release `ensign` was not found next to the benchmarks",
                    measured: "median of several runs of the release `ensign toggle --socket …`, start to exit")
            ]
    }

    /// The median wall time of `runs` `ensign toggle` processes, in nanoseconds.
    private static func toggleProcessTime(socket: String, runs: Int) throws -> Double {
        let executable = BuiltTool.path("ensign")
        guard access(executable, X_OK) == 0 else { return .nan }
        let times = try (0..<runs).map { _ in
            try BuiltTool.wallTime(executable, ["toggle", "demo.process", "--socket", socket], what: "ensign toggle")
        }
        return Percentile.of(times, 0.5)
    }

    // MARK: File change

    private static func runFileChange(_ settings: RunSettings) throws -> [EntryResult] {
        let directory = try TemporaryFiles.directory()
        defer { TemporaryFiles.remove(directory) }
        try TemporaryFiles.write(directory + "/flags/catalog.yaml", GeneratedDefinitions.manyFlags(count: 10_000))
        let deployment = directory + "/deploy/flags.yaml"
        try TemporaryFiles.write(deployment, "flags:\n  catalog.area0.flag0: false\n")
        var configuration = AppContextConfiguration(
            definitionsDirectory: directory + "/flags", environment: "production", deploymentFiles: [deployment])
        configuration.pollInterval = .seconds(5)  // inotify delivers the changes; the poll is the backstop
        let context = try AppContext(configuration: configuration)
        let arrivals = ArrivalClock()
        let token = context.observe(FlagKey("catalog.area0.flag0", default: false), label: "bench") { _ in
            arrivals.arrive()
        }
        defer { token.cancel() }
        let changes = settings.isQuick ? 10 : 50
        var value = false
        let rounds = try LatencyRounds(rounds: settings.rounds / 3, events: changes) {
            value.toggle()
            // As an editor or a deployment does it: write a new file, rename it over the old one.
            try TemporaryFiles.write(deployment + ".new", "flags:\n  catalog.area0.flag0: \(value)\n")
            let start = ContinuousClock.now
            guard rename(deployment + ".new", deployment) == 0 else { throw BenchmarkFailure("rename failed") }
            return [try arrivals.wait(since: start, timeout: .seconds(5))]
        }
        return EntryResult.latencyPercentiles(
            group: "file change, 10,000 flags", id: "file", name: "deployment file edit → observer", events: changes,
            p50: rounds.p50, p99: rounds.p99, target: .time(atMostNanoseconds: 150_000_000, aim: 100_000_000),
            note: "from renaming a new deployment file into place to the observer, \(changes) changes per round,"
                + " with the default 50 ms debounce")
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
