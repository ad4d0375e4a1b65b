import Ensign
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

@Suite("Writes: production refusal and persisted overrides")
struct WritePolicyTests {
    @Test("In production, set, toggle and reset are FORBIDDEN with how to allow them; reads still work")
    func productionRefusesWrites() throws {
        let harness = try ServerHarness(environment: "production")
        let client = try harness.client()
        let writes: [() throws -> Void] = [
            { _ = try client.set("beneficiaries.pageSize", to: 50) },
            { _ = try client.toggle("beneficiaries.showPendingList") },
            { _ = try client.reset("beneficiaries.pageSize") },
            { _ = try client.resetAll() },
        ]
        for write in writes {
            expectRefusal(.forbidden, containing: "allowsWritesInProduction: true", write)
        }
        #expect(harness.context.overrides.isEmpty)
        #expect(try client.get("beneficiaries.pageSize").value == 30)
        #expect(try client.status().acceptsWrites == false)
    }

    @Test("Case variants of production are production: writes are refused", arguments: ["Production", "PRODUCTION"])
    func productionInAnyCase(_ environment: String) throws {
        let harness = try ServerHarness(environment: environment)
        let client = try harness.client()
        expectRefusal(.forbidden) { try client.set("beneficiaries.pageSize", to: 50) }
        #expect(harness.context.overrides.isEmpty)
        #expect(try client.status().acceptsWrites == false)
    }

    @Test("With allowsWritesInProduction, production accepts writes")
    func productionAllowed() throws {
        let harness = try ServerHarness(environment: "production") { $0.allowsWritesInProduction = true }
        let client = try harness.client()
        #expect(try client.set("beneficiaries.pageSize", to: 50).value == 50)
        #expect(harness.context[.pageSize] == 50)
    }

    @Test("A persisted set survives a restart of the app")
    func persistedSetSurvivesRestart() throws {
        let root = try TemporaryRuntimeDirectory()
        let flags = root.path + "/flags"
        try FileManager.default.createDirectory(atPath: flags, withIntermediateDirectories: true)
        try ControlFixtures.definitions.write(toFile: flags + "/app.yaml", atomically: true, encoding: .utf8)
        var configuration = AppContextConfiguration(
            definitionsDirectory: flags, environment: "development", overridesFile: root.path + "/overrides.yaml")
        configuration.watchesFiles = false
        do {
            let harness = try ServerHarness(context: try AppContext(configuration: configuration))
            let client = try harness.client()
            let report = try client.set("beneficiaries.pageSize", to: 75, persist: true)
            #expect(report.isPersisted)
            try client.set("beneficiaries.sortOrder", to: "name")
            try harness.context.flush()
            harness.server.stop()
        }
        let restarted = try ServerHarness(context: try AppContext(configuration: configuration))
        let client = try restarted.client()
        let pageSize = try client.get("beneficiaries.pageSize")
        #expect(pageSize.value == 75)
        #expect(pageSize.reason == "OVERRIDE")
        #expect(pageSize.isPersisted)
        #expect(try client.get("beneficiaries.sortOrder").value == "recent")
    }

    @Test("persist without an overrides file is UNAVAILABLE and changes nothing")
    func persistWithoutFile() throws {
        let harness = try ServerHarness()
        expectRefusal(.unavailable, containing: "overridesFile") {
            try harness.client().set("beneficiaries.pageSize", to: 75, persist: true)
        }
        #expect(harness.context[.pageSize] == 30)
    }
}
