import EnsignHTTP
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

/// A stream of acknowledged writes, one new key per write plus a counter, so a missed watch
/// event leaves a key at its default and shows.
private final class WriteStream: Sendable {
    static let count = 60
    /// Definitions: `stress.k0`…`stress.k59` and `stress.counter`, ints defaulting to 0.
    static let definitions: String = {
        var text = "version: 1\nnamespace: stress\nflags:\n  counter: { type: int, default: 0 }\n"
        for index in 0..<count { text += "  k\(index): { type: int, default: 0 }\n" }
        return text
    }()

    let client: EtcdClient
    let prefix: String
    /// How many writes etcd has acknowledged.
    let acknowledged = LockedCondition(0)
    let failedAttempts = LockedCounter()
    private let thread: WorkerThread

    init(client: EtcdClient, prefix: String) {
        self.client = client
        self.prefix = prefix
        let acknowledged = self.acknowledged
        let failedAttempts = self.failedAttempts
        thread = WorkerThread(name: "write-stream") {
            for index in 0..<Self.count {
                // Each write is retried until etcd acknowledges it (the member may be down).
                for (key, value) in [("k\(index)", index + 1), ("counter", index + 1)] {
                    while (try? client.put(prefix + "stress." + key, value: Array(String(value).utf8))) == nil {
                        failedAttempts.increment()
                        usleep(20_000)  // the writer's own retry pace, not a wait in the test
                    }
                }
                acknowledged.update { $0 = index + 1 }
            }
        }
    }

    func join() { thread.join() }

    /// Whether `context` has every value the stream wrote.
    static func hasConverged(_ context: AppContext) -> Bool {
        let snapshot = context.snapshot
        guard snapshot.value(forKeyNamed: "stress.counter") == .int(count) else { return false }
        return (0..<count).allSatisfy { snapshot.value(forKeyNamed: "stress.k\($0)") == .int($0 + 1) }
    }

    /// The keys `context` is missing or has wrong, for failure messages.
    static func differences(_ context: AppContext) -> [String] {
        (0..<count).compactMap { index in
            let value = context.value(forKeyNamed: "stress.k\(index)")
            return value == .int(index + 1) ? nil : "stress.k\(index)=\(value?.jsonText ?? "nil")"
        }
    }
}

/// A thread-safe counter.
final class LockedCounter: Sendable {
    private let value = LockedCondition(0)
    func increment() { value.update { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

extension EtcdIntegrationTests {
    @Suite("etcd faults")
    struct FleetFaultTests {
        @Test("Killing the only etcd member during a stream of writes and restarting it loses no update")
        func killAndRestart() throws {
            let cluster = try EtcdCluster()
            defer { cluster.stop() }
            let prefix = uniquePrefix("kill")
            let fleet = try FleetApps(
                definitions: WriteStream.definitions, endpoints: [cluster.clientURLs, cluster.clientURLs],
                prefix: prefix)
            defer { fleet.stop() }
            let (apps, sources) = (fleet.contexts, fleet.sources)

            let stream = WriteStream(client: try cluster.client(prefix: prefix), prefix: prefix)
            #expect(stream.acknowledged.wait(until: { $0 >= 20 }, timeout: .seconds(30)))
            cluster.kill(cluster.members[0])
            #expect(
                waitUntil("app 0's status to be degraded") { apps[0].status.isDegraded },
                "the outage shows in the status")
            try cluster.restart(cluster.members[0])
            stream.join()
            #expect(stream.failedAttempts.count > 0, "some writes met the outage")

            for (index, app) in apps.enumerated() {
                let converged = waitUntil(
                    "app \(index) to converge", timeout: .seconds(30), pollingEvery: .milliseconds(20)
                ) {
                    WriteStream.hasConverged(app)
                }
                #expect(converged, "app \(index) misses \(WriteStream.differences(app).prefix(10))")
                #expect(
                    waitUntil("app \(index)'s status to be healthy") { !app.status.isDegraded },
                    "app \(index) is healthy again")
                #expect(sources[index].fullReads == 1, "app \(index) resumed its watch rather than re-reading")
            }
        }

        @Test("A three-member cluster that loses a member keeps two apps converging")
        func threeMembersLoseOne() throws {
            let cluster = try EtcdCluster(size: 3)
            defer { cluster.stop() }
            let prefix = uniquePrefix("three")
            let urls = cluster.clientURLs
            // The first app starts on member 0 (the one to be killed), the second on member 1.
            let fleet = try FleetApps(
                definitions: WriteStream.definitions, endpoints: [urls, [urls[1], urls[2], urls[0]]], prefix: prefix)
            defer { fleet.stop() }
            let apps = fleet.contexts
            #expect(apps[0].status.fleet?.source == "etcd \(urls[0])")

            let stream = WriteStream(client: try cluster.client(prefix: prefix), prefix: prefix)
            #expect(stream.acknowledged.wait(until: { $0 >= 20 }, timeout: .seconds(30)))
            cluster.kill(cluster.members[0])
            stream.join()

            for (index, app) in apps.enumerated() {
                let converged = waitUntil(
                    "app \(index) to converge", timeout: .seconds(30), pollingEvery: .milliseconds(20)
                ) {
                    WriteStream.hasConverged(app)
                }
                #expect(converged, "app \(index) misses \(WriteStream.differences(app).prefix(10))")
                #expect(!app.status.isDegraded, "a cluster that keeps its quorum is not an outage")
            }
            #expect(apps[0].status.fleet?.source != "etcd \(urls[0])", "the first app moved to a live member")
        }
    }
}
