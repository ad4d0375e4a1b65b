import EnsignTesting
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    @Suite("etcd fleet source as a value provider")
    struct FleetCompatibilityTests {
        @Test("The etcd fleet source passes the value provider compatibility test, an outage of its member included")
        func compatibility() throws {
            let cluster = try EtcdCluster()
            defer { cluster.stop() }
            let prefix = uniquePrefix("compat")
            let client = try cluster.client(prefix: prefix)
            try client.put(prefix + "list.pageSize", value: Array("50".utf8))
            try client.put(prefix + "list.showPending", value: Array("true".utf8))
            let source = try EtcdFleetSource(configuration: testConfiguration([cluster.clientURLs[0]], prefix: prefix))
            #expect(source.name == "etcd \(cluster.clientURLs[0])")
            let test = ValueProviderCompatibilityTest(definitions: bankDefinitions, quietPeriod: .milliseconds(500))
            let member = cluster.members[0]
            let outage: (Bool) throws -> Void = { isOut in
                if isOut { cluster.kill(member) } else { try cluster.restart(member) }
            }
            try test.check(source, outage: outage) { round in
                switch round {
                case .attached:
                    try client.put(prefix + "list.sortOrder", value: Array("name".utf8))
                    return ["list.sortOrder": "name", "list.pageSize": 50]
                case .stopped:
                    try client.put(prefix + "list.pageSize", value: Array("60".utf8))
                    return ["list.pageSize": 60]
                }
            }
        }

        @Test("An attached source delivers through the public handle: current values, provenance and status")
        func attachedThroughTheHandle() throws {
            let cluster = try EtcdCluster()
            defer { cluster.stop() }
            let prefix = uniquePrefix("attach")
            let client = try cluster.client(prefix: prefix)
            let written = try client.put(prefix + "list.pageSize", value: Array("50".utf8))
            try client.put(prefix + "list.layout", value: Array("{ columns: [".utf8))  // neither JSON nor YAML
            let context = try AppContext(definitions: bankDefinitions)
            let source = try EtcdFleetSource(configuration: testConfiguration(cluster.clientURLs, prefix: prefix))
            #expect(source.currentValues() == ProvidedValues(), "nothing before the first read")
            context.attach(source)
            defer { source.stop() }
            #expect(source.waitUntilSynced(timeout: .seconds(10)))
            let held = source.currentValues()
            #expect(held.values.mapValues(\.value) == ["list.pageSize": 50])
            #expect(held.values["list.pageSize"]?.path == "etcd:\(prefix)list.pageSize")
            #expect(
                held.values["list.pageSize"]?.provenance.description
                    == "fleet etcd \(cluster.clientURLs[0]) rev \(written)")
            #expect(held.diagnostics.map(\.location.file) == ["etcd:\(prefix)list.layout"])
            #expect(context.details(forKeyNamed: "list.pageSize").source == held.values["list.pageSize"]?.provenance)
            #expect(context.status.fleet?.source == "etcd \(cluster.clientURLs[0])")
            #expect(context.status.fleet?.revision == held.revision)
        }
    }
}
