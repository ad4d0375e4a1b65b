import Ensign
import EnsignFleet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fleet propagation: a write to etcd, from the moment it is sent, until the observer runs in each of two
/// app contexts that joined the fleet with their own fleet sources (their own connections and
/// watches, as two app processes have). One etcd member runs on loopback for the group; without
/// an `etcd` binary the entries report n/a and say how to install it.
enum FleetEntries {
    static let names = ["fleet p50", "fleet p99"]
    private static let groupName = "fleet propagation (etcd)"
    private static let key = "fleet.enabled"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: names, run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        guard let member = try LoopbackEtcd.start() else {
            return results(
                p50: [], p99: [], toggles: 0, note: "etcd is not installed; scripts/setup --with-test-tools installs it"
            )
        }
        defer { member.stop() }
        let prefix = "/ensign-bench/"
        let apps = try (0..<2).map { _ in
            let source = try EtcdFleetSource(
                configuration: EtcdConfiguration(endpoints: [member.clientURL], keyPrefix: prefix))
            return try ObservedApp(
                key: key, provider: source, isReady: source.waitUntilSynced(timeout:),
                unready: "the fleet source did not sync with \(member.clientURL)")
        }
        defer { for app in apps { app.stop() } }
        var configuration = EtcdConfiguration(endpoints: [member.clientURL], keyPrefix: prefix)
        configuration.requestTimeout = .seconds(5)
        let writer = try EtcdClient(configuration: configuration)

        // Timed from before the put is sent: the watch event can reach the observers before the
        // put's reply is read, so timing from the acknowledgement measured 0 for those.
        let rounds = try PropagationRounds(settings, apps: apps) { value in
            _ = try writer.put(prefix + key, value: Array(String(value).utf8))
        }
        let toggles = rounds.toggles
        return results(
            p50: rounds.latencies.p50, p99: rounds.latencies.p99, toggles: toggles,
            note: "from sending the put to the observer in each of 2 contexts with their own fleet sources,"
                + " \(toggles) toggles per round, one etcd member on loopback")
    }

    private static func results(p50: [Double], p99: [Double], toggles: Int, note: String) -> [EntryResult] {
        EntryResult.latencyPercentiles(
            group: groupName, id: "fleet", name: "write sent → observer", events: toggles, p50: p50, p99: p99,
            target: .time(atMostNanoseconds: 250_000_000), note: note)
    }
}

/// One etcd member on loopback ports, with its data in a temporary directory.
private struct LoopbackEtcd {
    let clientURL: String
    let process: pid_t
    let directory: String

    /// Starts a member and waits until it serves reads; nil when no `etcd` is on PATH.
    static func start() throws -> LoopbackEtcd? {
        guard let executable = BuiltTool.onPath("etcd") else { return nil }
        // etcd fsyncs every write: on memory-backed /dev/shm the disk does not dominate.
        let directory = try TemporaryFiles.directory(under: access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
        let clientURL = "http://127.0.0.1:\(try LoopbackPort.free())"
        let peerURL = "http://127.0.0.1:\(try LoopbackPort.free())"
        let process = try BuiltTool.start(
            executable,
            [
                "--name", "bench", "--data-dir", directory + "/data",
                "--listen-client-urls", clientURL, "--advertise-client-urls", clientURL,
                "--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
                "--initial-cluster", "bench=\(peerURL)", "--logger", "zap", "--log-level", "error",
            ])
        let member = LoopbackEtcd(clientURL: clientURL, process: process, directory: directory)
        var configuration = EtcdConfiguration(endpoints: [clientURL], keyPrefix: "/")
        configuration.requestTimeout = .seconds(1)
        let client = try EtcdClient(configuration: configuration)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if (try? client.get("/ready")) != nil { return member }
            usleep(50_000)
        }
        member.stop()
        throw BenchmarkFailure("etcd did not start serving on \(clientURL) within 30 s")
    }

    func stop() {
        BuiltTool.stop(process, with: SIGKILL)
        TemporaryFiles.remove(directory)
    }
}
