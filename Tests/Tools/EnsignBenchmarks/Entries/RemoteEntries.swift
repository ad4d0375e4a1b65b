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
        let apps = try (0..<2).map { index in
            var configuration = OFREPRemoteConfiguration(
                baseURL: baseURL, evaluationContext: ["targetingKey": .string("bench-\(index)")])
            configuration.pollInterval = nil  // the stream alone
            let source = try OFREPRemoteSource(configuration: configuration)
            return try ObservedApp(
                key: key, provider: source, isReady: source.waitUntilStreaming(timeout:),
                unready: "the remote source did not connect its event stream to \(baseURL)")
        }
        defer { for app in apps { app.stop() } }

        let rounds = try PropagationRounds(settings, apps: apps) { value in
            try serverContext.setOverride(keyNamed: key, to: .bool(value))
        }
        let toggles = rounds.toggles
        return EntryResult.latencyPercentiles(
            group: groupName, id: "remote", name: "change → SSE → re-fetch → observer", events: toggles,
            p50: rounds.latencies.p50, p99: rounds.latencies.p99, target: .time(atMostNanoseconds: 250_000_000),
            note: "from the server-side override to the observer in each of 2 contexts with their own remote"
                + " sources, \(toggles) toggles per round, ensign serve's server on loopback")
    }
}
