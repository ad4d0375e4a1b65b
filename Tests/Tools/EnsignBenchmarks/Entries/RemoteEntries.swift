import Ensign
import EnsignOFREP
import EnsignRemote
import EnsignServe

/// Remote propagation: a change on an OFREP server (`ensign serve`'s server, in this process
/// on loopback), from the moment it is made, through the server's event-stream notice and the
/// client's re-fetch, until the observer runs in each of two app contexts fed by their own
/// `OFREPRemoteSource`s (their own connections and streams, as two app processes have).
enum RemoteEntries {
    static let names = ["remote p50", "remote p99"]
    private static let groupName = "remote propagation (OFREP)"
    private static let key = "remote.enabled"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: names, run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        let definitions = "flags:\n  \(key): { default: false }\n"
        let serverContext = try AppContext(definitions: definitions)
        var serviceOptions = OFREPServiceOptions()
        serviceOptions.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        var options = OFREPServerOptions()
        options.listenAddress = ListenAddress(host: "127.0.0.1", port: 0)
        let server = try OFREPServer.start(
            service: OFREPService(context: serverContext, options: serviceOptions), options: options)
        defer { server.stop() }
        let baseURL = "http://127.0.0.1:\(server.address.port)"
        let apps = try (0..<2).map { index in try RemoteApp(baseURL: baseURL, user: "bench-\(index)", key: key) }
        defer { for app in apps { app.stop() } }

        let toggles = settings.isQuick ? 30 : 120
        var value = false
        let rounds = try LatencyRounds(rounds: settings.rounds / 3, events: toggles) {
            value.toggle()  // every write is a change, so every write notifies
            let sent = ContinuousClock.now
            try serverContext.setOverride(keyNamed: key, to: .bool(value))
            return try apps.map { try $0.arrivals.wait(since: sent, timeout: .seconds(5)) }
        }
        return [
            EntryResult(
                group: groupName, id: "remote p50", name: "change → SSE → re-fetch → observer, p50",
                unit: .nanosecondsPerOperation, iterations: toggles, samples: rounds.p50,
                note: "from the server-side override to the observer in each of 2 contexts with their own remote"
                    + " sources, \(toggles) toggles per round, ensign serve's server on loopback"),
            EntryResult(
                group: groupName, id: "remote p99", name: "change → SSE → re-fetch → observer, p99",
                unit: .nanosecondsPerOperation, iterations: toggles, samples: rounds.p99,
                target: .time(atMostNanoseconds: 250_000_000), note: "p99 of the same"),
        ]
    }
}

/// An app context fed by a remote source, with an observer of one key.
private final class RemoteApp {
    let arrivals = ArrivalClock()
    private let source: OFREPRemoteSource
    private let token: ObservationToken

    init(baseURL: String, user: String, key: String) throws {
        let context = try AppContext(definitions: "flags:\n  \(key): { default: false }\n")
        let arrivals = self.arrivals
        token = context.observe(FlagKey(key, default: false), label: "bench") { _ in arrivals.arrive() }
        var configuration = OFREPRemoteConfiguration(
            baseURL: baseURL, evaluationContext: ["targetingKey": .string(user)])
        configuration.pollInterval = nil  // the stream alone
        source = try OFREPRemoteSource(configuration: configuration)
        context.attach(source)
        guard source.waitUntilStreaming(timeout: .seconds(10)) else {
            source.stop()
            throw BenchmarkFailure("the remote source did not connect its event stream to \(baseURL)")
        }
    }

    func stop() {
        source.stop()
        token.cancel()
    }
}
