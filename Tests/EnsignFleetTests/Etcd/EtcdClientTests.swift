import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    @Suite("etcd client")
    struct ClientTests {
        @Test("Put, get, prefix range and delete round-trip through the JSON gateway")
        func roundTrip() throws {
            try EtcdTestBed.run { bed in
                let client = try bed.cluster.client(prefix: "/app/flags/")
                let first = try client.put("/app/flags/a", value: Array("true".utf8))
                let second = try client.put("/app/flags/b", value: [0, 255, 10])
                try client.put("/app/flagsX", value: Array("outside".utf8))
                #expect(second == first + 1)
                let range = try client.rangeOfPrefix()
                #expect(range.keyValues.map(\.key) == ["/app/flags/a", "/app/flags/b"])
                #expect(range.keyValues[1].value == [0, 255, 10])
                #expect(range.revision >= second + 1)
                let (a, _) = try client.get("/app/flags/a")
                #expect(a?.valueText == "true" && a?.modRevision == first && a?.version == 1)
                let (revision, deleted) = try client.delete("/app/flags/a")
                #expect(deleted == 1 && revision > second)
                #expect(try client.get("/app/flags/a").keyValue == nil)
                #expect(try client.deletePrefix().deleted == 1)
                #expect(try client.get("/app/flagsX").keyValue?.valueText == "outside")
            }
        }

        @Test("A compare-and-swap write succeeds at the key's revision and otherwise reports the current one")
        func compareAndSwap() throws {
            try EtcdTestBed.run { bed in
                let client = try bed.cluster.client()
                let created = try #require(
                    try client.write("/test/k", value: Array("1".utf8), ifModRevision: 0).writtenRevision)
                let conflict = try client.write("/test/k", value: Array("2".utf8), ifModRevision: 0)
                guard case .failed(let current, _) = conflict else {
                    Issue.record("revision 0 matched an existing key")
                    return
                }
                #expect(current?.modRevision == created && current?.valueText == "1")
                let updated = try client.write("/test/k", value: Array("3".utf8), ifModRevision: created)
                    .writtenRevision
                #expect(updated != nil)
                #expect(try client.get("/test/k").keyValue?.valueText == "3")
                #expect(try client.write("/test/k", value: nil, ifModRevision: created).writtenRevision == nil)
                #expect(try client.write("/test/k", value: nil, ifModRevision: updated ?? -1).writtenRevision != nil)
                #expect(try client.get("/test/k").keyValue == nil)
            }
        }

        @Test("Requests fail over to the next endpoint when the first is down")
        func failover() throws {
            try EtcdTestBed.run { bed in
                let cluster = bed.cluster
                let dead = "http://127.0.0.1:\(try Loopback.freePort())"
                let client = try cluster.client(endpoints: [dead] + cluster.clientURLs)
                try client.put("/test/k", value: Array("1".utf8))
                #expect(try client.get("/test/k").keyValue?.valueText == "1")
                let nobody = try cluster.client(endpoints: [dead])
                #expect {
                    _ = try nobody.get("/test/k")
                } throws: { error in
                    guard case .unreachable(let attempts) = error as? EtcdError else { return false }
                    return attempts.count == 1 && attempts[0].contains("cannot connect")
                }
            }
        }

        @Test("A watch from a compacted revision reports the compaction; a live one streams events as they happen")
        func watch() throws {
            try EtcdTestBed.run { bed in
                let client = try bed.cluster.client()
                var revision: Int64 = 0
                for index in 1...3 { revision = try client.put("/test/k\(index)", value: Array("\(index)".utf8)) }
                try client.compact(revision: revision)
                let endpoint = client.endpoints[0]
                #expect(throws: EtcdError.compacted(endpoint: endpoint.name, compactRevision: revision)) {
                    try endpoint.watch("/test/", rangeEnd: EtcdKeyRange.end(ofPrefix: "/test/"), startRevision: 1) {
                        (responses) throws(EtcdError) -> Bool in
                        if let response = responses.first(where: { $0.compactRevision > 0 }) {
                            throw .compacted(endpoint: endpoint.name, compactRevision: response.compactRevision)
                        }
                        return true
                    }
                }
                // A live watch: a write made after the watch is created arrives as one event.
                var seen: [EtcdEvent] = []
                let writer = DispatchWorkItem { _ = try? client.put("/test/live", value: Array("x".utf8)) }
                try endpoint.watch(
                    "/test/", rangeEnd: EtcdKeyRange.end(ofPrefix: "/test/"), startRevision: revision + 1
                ) {
                    responses in
                    if responses.contains(where: \.isCreated) { DispatchQueue.global().async(execute: writer) }
                    seen += responses.flatMap(\.events)
                    return seen.isEmpty
                }
                #expect(seen.map(\.keyValue.key) == ["/test/live"] && seen.first?.kind == .put)
            }
        }

        @Test("With credentials the client authenticates, again when its token is rejected, and after etcd restarts")
        func authentication() throws {
            try EtcdTestBed.run { bed in
                let cluster = bed.cluster
                try cluster.etcdctl(["user", "add", "root:secret"])
                try cluster.etcdctl(["auth", "enable"])
                var configuration = EtcdConfiguration(endpoints: cluster.clientURLs, keyPrefix: "/auth/")
                #expect(
                    throws: EtcdError.server(
                        endpoint: cluster.clientURLs[0], code: 3, message: "etcdserver: user name is empty")
                ) {
                    _ = try EtcdClient(configuration: configuration).get("/auth/k")
                }
                configuration.credentials = EtcdCredentials(username: "root", password: "wrong")
                #expect {
                    _ = try EtcdClient(configuration: configuration).get("/auth/k")
                } throws: { error in
                    "\(error)".contains("authentication failed")
                }
                configuration.credentials = EtcdCredentials(username: "root", password: "secret")
                let client = try EtcdClient(configuration: configuration)
                try client.put("/auth/list.pageSize", value: Array("50".utf8))
                #expect(try client.get("/auth/list.pageSize").keyValue?.valueText == "50")
                // An expired or revoked token: the client authenticates again on its own.
                client.endpoints[0].tokens.store("expired", for: cluster.clientURLs[0])
                #expect(try client.get("/auth/list.pageSize").keyValue?.valueText == "50")

                let context = try AppContext(definitions: bankDefinitions)
                var sourceConfiguration = testConfiguration(cluster.clientURLs, prefix: "/auth/")
                sourceConfiguration.credentials = configuration.credentials
                let source = try bed.startSource(for: context, configuration: sourceConfiguration)
                #expect(source.waitUntilSynced(timeout: .seconds(10)))
                #expect(context.value(forKeyNamed: "list.pageSize") == 50)

                // A restart invalidates etcd's simple tokens: the client and the source each get a
                // new one on their own, and the source's watch resumes.
                cluster.kill(cluster.members[0])
                try cluster.restart(cluster.members[0])
                #expect(try client.get("/auth/list.pageSize").keyValue?.valueText == "50")
                let written = try client.put("/auth/list.pageSize", value: Array("60".utf8))
                #expect(source.waitForRevision(written, timeout: .seconds(20)))
                #expect(context.value(forKeyNamed: "list.pageSize") == 60)
                #expect(waitUntil("the source to be healthy after the restart") { !context.status.isDegraded })
            }
        }

        @Test("The prefix range end covers exactly the keys under the prefix")
        func rangeEnd() {
            #expect(EtcdKeyRange.end(ofPrefix: "/a/") == Array("/a0".utf8))
            #expect(EtcdKeyRange.end(ofPrefix: "a\u{7F}") == [0x61, 0x80])
            #expect(EtcdKeyRange.end(ofPrefix: "/é") == [0x2F, 0xC3, 0xAA])
        }
    }
}

extension EtcdComparison {
    /// The revision of the write when it succeeded.
    var writtenRevision: Int64? {
        if case .succeeded(let revision) = self { return revision }
        return nil
    }
}
