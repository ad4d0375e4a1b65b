import EnsignSupport
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    @Suite("etcd fleet source")
    struct FleetSourceTests {
        @Test("A context reads the fleet values at start, applies later writes live, and names etcd as their source")
        func readsAndWatches() throws {
            try EtcdTestBed.run(prefix: "live") { bed in
                let first = try bed.put("list.pageSize", "50")
                let (context, source) = try bed.startSyncedApp()
                #expect(context.value(forKeyNamed: "list.pageSize") == 50)
                let details = context.details(forKeyNamed: "list.pageSize")
                #expect(details.reason == .staticValue)
                #expect(details.source.description == "fleet etcd \(bed.firstClientURL) rev \(first)")

                let changes = LockedCondition<[ChangeBatch]>([])
                let token = context.observeAll { batch in changes.update { $0.append(batch) } }
                defer { token.cancel() }
                let written = try bed.put("list.sortOrder", "name")  // YAML: a plain string
                #expect(source.waitForRevision(written, timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.sortOrder") == "name")
                let batches = changes.withLock { $0 }
                #expect(
                    batches.map { $0.changes.map(\.key) } == [["list.sortOrder"]], "only the written key is notified")
                #expect(batches.first?.cause == .fleet(source: "etcd \(bed.firstClientURL) rev \(written)"))

                let layout = try bed.put("list.layout", "{ columns: 2, dense: true }")
                #expect(source.waitForRevision(layout, timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.layout") == ["columns": 2, "dense": true])

                let explanation = context.explain(keyNamed: "list.sortOrder")
                let winner = try #require(explanation.layers.first { $0.isWinner })
                #expect(winner.source.layer == .fleet && winner.value == "name")
                #expect(explanation.layers.map(\.source.layer) == [.definition, .fleet])
                #expect(!context.status.isDegraded)
                #expect(context.status.fleet?.revision == layout)
            }
        }

        @Test("An invalid value is refused and reported with its etcd path while every other key keeps working")
        func invalidValueIsolated() throws {
            try EtcdTestBed.run(prefix: "invalid") { bed in
                let prefix = bed.prefix
                try bed.put("list.pageSize", "500")  // above the maximum of 100
                try bed.put("list.sortOrder", "\"bogus\"")  // not in the enum
                try bed.put("list.layout", "{ columns: [")  // neither JSON nor YAML
                try bed.put("list.showPending", "true")
                let (context, source) = try bed.startSyncedApp()

                #expect(context.value(forKeyNamed: "list.showPending") == true)
                #expect(context.value(forKeyNamed: "list.pageSize") == 20, "the definition's default decides")
                #expect(context.value(forKeyNamed: "list.sortOrder") == "recent")
                #expect(context.value(forKeyNamed: "list.layout") == ["columns": 1])
                let status = context.status
                #expect(status.isDegraded && status.since != nil)
                let paths = Set(status.diagnostics.map(\.location.file))
                #expect(
                    paths == [
                        "etcd:\(prefix)list.pageSize", "etcd:\(prefix)list.sortOrder", "etcd:\(prefix)list.layout",
                    ])
                let pageSize = try #require(status.diagnostics.first { $0.key == "list.pageSize" })
                #expect(
                    pageSize.description.hasPrefix(
                        "etcd:\(prefix)list.pageSize: error: 'list.pageSize' value 500 is above the maximum of 100"))
                let logged = context.changeLog.filter { if case .fleet = $0.cause { true } else { false } }
                #expect(logged.flatMap(\.diagnostics).count == 3, "the change log records each refused value once")

                // Fixing the values clears the problems one by one.
                try bed.put("list.pageSize", "60")
                try bed.put("list.sortOrder", "name")
                let fixed = try bed.put("list.layout", "{\"columns\": 3}")
                #expect(source.waitForRevision(fixed, timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.pageSize") == 60)
                #expect(context.value(forKeyNamed: "list.layout") == ["columns": 3])
                #expect(!context.status.isDegraded && context.status.diagnostics.isEmpty)
            }
        }

        @Test("A deleted fleet key falls back to the lower layers")
        func deletion() throws {
            try EtcdTestBed.run(prefix: "delete") { bed in
                try bed.put("list.pageSize", "50")
                let (context, source) = try bed.startSyncedApp(deploymentOverlays: ["flags:\n  list.pageSize: 30\n"])
                #expect(context.value(forKeyNamed: "list.pageSize") == 50, "the fleet layer is over deployment files")
                let (revision, _) = try bed.client.delete(bed.prefix + "list.pageSize")
                #expect(source.waitForRevision(revision, timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.pageSize") == 30)
                #expect(context.details(forKeyNamed: "list.pageSize").source.layer == .deployment)
            }
        }

        @Test("Stopping a source ends its thread and closes its connection")
        func stopsCleanly() throws {
            try EtcdTestBed.run(prefix: "stop") { bed in
                let port = bed.cluster.members[0].clientPort
                let earlier = threadIDs(named: "ensign-fleet")
                let context = try AppContext(definitions: bankDefinitions)
                var sources: [EtcdFleetSource] = []
                for _ in 0..<3 {
                    sources.append(
                        try EtcdFleetSource.start(context: context, configuration: bed.sourceConfiguration()))
                }
                for source in sources { #expect(source.waitUntilSynced(timeout: .seconds(10))) }
                let started = threadIDs(named: "ensign-fleet").subtracting(earlier)
                #expect(started.count == 3, "one thread per source")
                #expect(
                    waitUntil("3 connections to etcd", pollingEvery: .milliseconds(20)) {
                        openConnections(toPort: port) == 3
                    }, "one watch each")
                let start = ContinuousClock.now
                for source in sources { source.stop() }
                #expect(ContinuousClock.now - start < .seconds(1), "stopping interrupts the blocked watch at once")
                // pthread_join returns once the thread has cleared its id, a moment before the kernel
                // removes its /proc entry; so wait a little for the entries, not for the threads.
                #expect(
                    waitUntil("the sources' threads to end", timeout: .seconds(2)) {
                        started.filter(threadIsAlive).isEmpty
                    },
                    "each source's own thread has ended")
                #expect(openConnections(toPort: port) == 0)
                sources.removeAll()
            }
        }

        @Test("While etcd is unreachable the last good layer stays and the status says degraded since when")
        func unreachable() throws {
            try EtcdTestBed.run(prefix: "outage") { bed in
                let proxy = try TCPProxy(upstreamPort: bed.cluster.members[0].clientPort)
                defer { proxy.stop() }
                try bed.put("list.pageSize", "42")
                let (context, _) = try bed.startSyncedApp(endpoints: [proxy.url])

                let before = WallClockTime.now()
                proxy.cut()
                #expect(waitUntil("the status to be degraded") { context.status.isDegraded })
                let status = context.status
                #expect(status.fleet?.isReachable == false && status.fleet?.lastError != nil)
                #expect(status.since.map { $0 >= before } == true)
                #expect(status.diagnostics.first?.message.contains("unreachable") == true)
                #expect(context.value(forKeyNamed: "list.pageSize") == 42, "the last good fleet layer stays in force")

                proxy.restore()
                #expect(waitUntil("the status to be healthy") { !context.status.isDegraded })
                #expect(context.status.fleet?.isReachable == true)
                let notes = context.changeLog.flatMap(\.diagnostics).map(\.message)
                #expect(notes.filter { $0.contains("unreachable") }.count == 1, "one outage, logged once")
                #expect(notes.contains("the fleet store is reachable again"))
            }
        }

        @Test(
            "A compaction past the app's revision is recovered by reading everything again, notifying only real changes"
        )
        func compactionRecovered() throws {
            try EtcdTestBed.run(prefix: "compact") { bed in
                let proxy = try TCPProxy(upstreamPort: bed.cluster.members[0].clientPort)
                defer { proxy.stop() }
                try bed.put("list.pageSize", "30")
                try bed.put("list.sortOrder", "name")
                try bed.put("list.layout", "{\"columns\": 2}")
                let (context, source) = try bed.startSyncedApp(endpoints: [proxy.url])
                let appRevision = source.revision

                proxy.cut()
                #expect(waitUntil("the status to be degraded") { context.status.isDegraded })
                let notified = LockedCondition<[String]>([])
                let token = context.observeAll { batch in notified.update { $0 += batch.changes.map(\.key) } }
                defer { token.cancel() }
                try bed.put("list.pageSize", "40")
                try bed.put("list.showPending", "true")
                try bed.put("list.sortOrder", "recent")
                try bed.put("list.sortOrder", "name")  // back to what the app has
                let (last, _) = try bed.client.delete(bed.prefix + "list.layout")
                try bed.client.compact(revision: last)
                #expect(last > appRevision + 1)

                proxy.restore()
                #expect(source.waitForRevision(last, timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.pageSize") == 40)
                #expect(context.value(forKeyNamed: "list.showPending") == true)
                #expect(context.value(forKeyNamed: "list.sortOrder") == "name")
                #expect(context.value(forKeyNamed: "list.layout") == ["columns": 1])
                #expect(Set(notified.withLock { $0 }) == ["list.pageSize", "list.showPending", "list.layout"])
                #expect(source.fullReads == 2, "the start, then the re-read after the compaction")
                #expect(!context.status.isDegraded)
            }
        }
    }
}
