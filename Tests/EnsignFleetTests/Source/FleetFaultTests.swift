import EnsignHTTP
import EnsignSupport
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

/// A stream of acknowledged writes, one new key per write plus a counter, so a missed watch
/// event leaves a key at its default and shows: `count` keys, `2 × count` writes.
private final class WriteStream: Sendable {
    let count: Int
    let client: EtcdClient
    let prefix: String
    /// How many keys etcd has acknowledged (with the counter after each).
    let acknowledged = LockedCondition(0)
    let failedAttempts = AtomicCounter()
    private let thread: JoinableThread

    /// Definitions: `stress.k0`…`stress.k<count-1>` and `stress.counter`, ints defaulting to 0.
    static func definitions(count: Int) -> String {
        var text = "version: 1\nnamespace: stress\nflags:\n  counter: { type: int, default: 0 }\n"
        for index in 0..<count { text += "  k\(index): { type: int, default: 0 }\n" }
        return text
    }

    init(count: Int, client: EtcdClient, prefix: String) {
        self.count = count
        self.client = client
        self.prefix = prefix
        let acknowledged = self.acknowledged
        let failedAttempts = self.failedAttempts
        thread = JoinableThread(name: "write-stream") {
            for index in 0..<count {
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
    func hasConverged(_ context: AppContext) -> Bool {
        let snapshot = context.snapshot
        guard snapshot.value(forKeyNamed: "stress.counter") == .int(count) else { return false }
        return (0..<count).allSatisfy { snapshot.value(forKeyNamed: "stress.k\($0)") == .int($0 + 1) }
    }

    /// The keys `context` is missing or has wrong, for failure messages.
    func differences(_ context: AppContext) -> [String] {
        (0..<count).compactMap { index in
            let value = context.value(forKeyNamed: "stress.k\(index)")
            return value == .int(index + 1) ? nil : "stress.k\(index)=\(value?.jsonText ?? "nil")"
        }
    }

    /// The keys whose value in `context` differs from etcd's, read now, for the final comparison.
    func disagreements(_ context: AppContext) throws -> [String] {
        let stored = try client.rangeOfPrefix().keyValues
        var differing: [String] = []
        for keyValue in stored where keyValue.key.hasPrefix(prefix) {
            let key = String(keyValue.key.dropFirst(prefix.count))
            let inEtcd = Int(String(decoding: keyValue.value, as: UTF8.self)).map(JSONValue.int)
            if context.value(forKeyNamed: key) != inEtcd { differing.append(key) }
        }
        if stored.count != count + 1 { differing.append("etcd holds \(stored.count) keys, not \(count + 1)") }
        return differing
    }
}

extension EtcdIntegrationTests {
    @Suite("etcd faults")
    struct FleetFaultTests {
        @Test("Killing the only etcd member during a stream of writes and restarting it loses no update")
        func killAndRestart() throws {
            try EtcdTestBed.run(prefix: "kill") { bed in
                let cluster = bed.cluster
                let started = try (0..<2).map { _ in
                    try bed.startSyncedApp(definitions: WriteStream.definitions(count: 60))
                }
                let (apps, sources) = (started.map(\.context), started.map(\.source))

                let stream = WriteStream(count: 60, client: bed.client, prefix: bed.prefix)
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
                        "app \(index) to converge", timeout: .seconds(120), pollingEvery: .milliseconds(20)
                    ) {
                        stream.hasConverged(app)
                    }
                    #expect(converged, "app \(index) misses \(stream.differences(app).prefix(10))")
                    #expect(
                        waitUntil("app \(index)'s status to be healthy") { !app.status.isDegraded },
                        "app \(index) is healthy again")
                    #expect(sources[index].fullReads == 1, "app \(index) resumed its watch rather than re-reading")
                }
            }
        }

        @Test(
            "A three-member cluster loses the member an app watches (SIGKILL) during 1,000 writes: both apps converge on etcd's values"
        )
        func threeMembersLoseOne() throws {
            try Self.withTwoApps(prefix: "three") { bed, apps in
                let (cluster, urls) = (bed.cluster, bed.cluster.clientURLs)

                let stream = WriteStream(count: 500, client: bed.client, prefix: bed.prefix)
                #expect(stream.acknowledged.wait(until: { $0 >= 100 }, timeout: .seconds(60)))
                let killed = ContinuousClock.now
                cluster.kill(cluster.members[0])
                #expect(
                    waitUntil("app 0 to move to a live member", timeout: .seconds(30)) {
                        apps[0].status.fleet?.source != "etcd \(urls[0])" && apps[0].status.fleet?.isReachable == true
                    })
                print("fleet failover: the app watching a killed member moved after \(ContinuousClock.now - killed)")
                stream.join()
                try Self.expectConverged(apps, on: stream)
                #expect(apps[0].status.fleet?.source != "etcd \(urls[0])", "the first app moved to a live member")
            }
        }

        @Test(
            "A member frozen for 15 s (SIGSTOP) during 1,000 writes: the app watching it moves to a live member and misses nothing"
        )
        func frozenMember() throws {
            try Self.withTwoApps(prefix: "frozen") { bed, apps in
                let (cluster, urls) = (bed.cluster, bed.cluster.clientURLs)

                // The writer is another process's client, on the members that stay awake.
                let stream = WriteStream(
                    count: 500, client: try cluster.client(prefix: bed.prefix, endpoints: [urls[1], urls[2]]),
                    prefix: bed.prefix)
                #expect(stream.acknowledged.wait(until: { $0 >= 100 }, timeout: .seconds(60)))
                let frozen = ContinuousClock.now
                cluster.freeze(cluster.members[0])
                defer { cluster.thaw(cluster.members[0]) }
                // Its watch stays open and silent; only the keep-alive check tells.
                #expect(
                    waitUntil("app 0 to move off the frozen member", timeout: .seconds(30)) {
                        apps[0].status.fleet?.source != "etcd \(urls[0])" && apps[0].status.fleet?.isReachable == true
                    })
                let moved = ContinuousClock.now - frozen
                print("fleet failover: the app watching a frozen member moved after \(moved)")
                #expect(moved < .seconds(15), "moved while the member was still frozen")
                stream.join()
                for (index, app) in apps.enumerated() {
                    #expect(
                        waitUntil("app \(index) to converge while the member is frozen", timeout: .seconds(30)) {
                            stream.hasConverged(app)
                        }, "app \(index) misses \(stream.differences(app).prefix(10))")
                }
                // The rest of the 15 seconds, then the member wakes; nothing regresses.
                let remaining = .seconds(15) - (ContinuousClock.now - frozen)
                if remaining > .zero { Thread.sleep(forTimeInterval: Double(remaining.components.seconds)) }
                cluster.thaw(cluster.members[0])
                try Self.expectConverged(apps, on: stream)
            }
        }

        /// Runs `body` on a three-member test bed with two apps for a stream of 500 keys: the
        /// first starts on member 0 (the one the test harms), the second on member 1.
        private static func withTwoApps(
            prefix label: String, _ body: (EtcdTestBed, [AppContext]) throws -> Void
        ) throws {
            try EtcdTestBed.run(size: 3, prefix: label) { bed in
                let urls = bed.cluster.clientURLs
                let apps = try [urls, [urls[1], urls[2], urls[0]]].map { endpoints in
                    try bed.startSyncedApp(definitions: WriteStream.definitions(count: 500), endpoints: endpoints)
                        .context
                }
                #expect(apps[0].status.fleet?.source == "etcd \(urls[0])")
                try body(bed, apps)
            }
        }

        /// Each app converges on what the stream wrote, and agrees with etcd key by key.
        private static func expectConverged(_ apps: [AppContext], on stream: WriteStream) throws {
            for (index, app) in apps.enumerated() {
                let converged = waitUntil(
                    "app \(index) to converge", timeout: .seconds(120), pollingEvery: .milliseconds(20)
                ) {
                    stream.hasConverged(app)
                }
                #expect(converged, "app \(index) misses \(stream.differences(app).prefix(10))")
                #expect(try stream.disagreements(app).isEmpty, "app \(index) differs from etcd")
                #expect(
                    waitUntil("app \(index) to be healthy") { !app.status.isDegraded },
                    "a cluster that keeps its quorum is not an outage")
            }
        }
    }
}
