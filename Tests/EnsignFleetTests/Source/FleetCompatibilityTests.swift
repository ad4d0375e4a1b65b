import EnsignTesting
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    @Suite("etcd fleet source as a value provider")
    struct FleetCompatibilityTests {
        @Test("The etcd fleet source passes the value provider compatibility test, an outage of its member included")
        func compatibility() throws {
            try EtcdTestBed.run(prefix: "compat") { bed in
                try bed.put("list.pageSize", "50")
                try bed.put("list.showPending", "true")
                let source = try EtcdFleetSource(
                    configuration: bed.sourceConfiguration(endpoints: [bed.firstClientURL]))
                #expect(source.name == "etcd \(bed.firstClientURL)")
                let test = ValueProviderCompatibilityTest(definitions: bankDefinitions, quietPeriod: .milliseconds(500))
                let member = bed.cluster.members[0]
                let outage: (Bool) throws -> Void = { isOut in
                    if isOut { bed.cluster.kill(member) } else { try bed.cluster.restart(member) }
                }
                try test.check(source, outage: outage) { round in
                    switch round {
                    case .attached:
                        try bed.put("list.sortOrder", "name")
                        return ["list.sortOrder": "name", "list.pageSize": 50]
                    case .stopped:
                        try bed.put("list.pageSize", "60")
                        return ["list.pageSize": 60]
                    }
                }
            }
        }

        @Test("An attached source delivers through the public handle: current values, provenance and status")
        func attachedThroughTheHandle() throws {
            try EtcdTestBed.run(prefix: "attach") { bed in
                let prefix = bed.prefix
                let written = try bed.put("list.pageSize", "50")
                try bed.put("list.layout", "{ columns: [")  // neither JSON nor YAML
                let context = try AppContext(definitions: bankDefinitions)
                let source = try EtcdFleetSource(configuration: bed.sourceConfiguration())
                #expect(source.currentValues() == ProvidedValues(), "nothing before the first read")
                context.attach(source)
                defer { source.stop() }
                #expect(source.waitUntilSynced(timeout: .seconds(10)))
                let held = source.currentValues()
                #expect(held.values.mapValues(\.value) == ["list.pageSize": 50])
                #expect(held.values["list.pageSize"]?.path == "etcd:\(prefix)list.pageSize")
                #expect(
                    held.values["list.pageSize"]?.provenance.description
                        == "fleet etcd \(bed.firstClientURL) rev \(written)")
                #expect(held.diagnostics.map(\.location.file) == ["etcd:\(prefix)list.layout"])
                #expect(
                    context.details(forKeyNamed: "list.pageSize").source == held.values["list.pageSize"]?.provenance)
                #expect(context.status.fleet?.source == "etcd \(bed.firstClientURL)")
                #expect(context.status.fleet?.revision == held.revision)
            }
        }
    }
}
