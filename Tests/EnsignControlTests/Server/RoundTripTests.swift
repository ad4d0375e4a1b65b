import Ensign
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

@Suite("Control server round trips through the client")
struct RoundTripTests {
    @Test("hello tells the app's name, pid, environment, Ensign version and protocol version")
    func hello() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        #expect(client.server.app == "testapp")
        #expect(client.server.pid == getpid())
        #expect(client.server.environment == "development")
        #expect(client.server.ensignVersion == EnsignVersion.current)
        #expect(client.server.protocolVersion == ControlProtocol.version)
    }

    @Test("A hello for another protocol version is refused with UNSUPPORTED_VERSION")
    func helloVersionMismatch() throws {
        let harness = try ServerHarness()
        let reply = try harness.raw().request(#"{"id":1,"op":"hello","protocol":99}"#)
        #expect(reply?["error"]?["code"] == "UNSUPPORTED_VERSION")
    }

    @Test("set overrides the value, the app's observer sees it, and get reports it as an override by cli")
    func setReachesObserver() throws {
        let harness = try ServerHarness()
        let seen = Recorder<Int>()
        let token = harness.context.observe(.pageSize, label: "page size view") { seen.record($0) }
        defer { token.cancel() }
        let client = try harness.client()
        let report = try client.set("beneficiaries.pageSize", to: 50)
        #expect(report.value == 50)
        #expect(report.reason == "OVERRIDE")
        #expect(report.source.layer == "override")
        #expect(report.source.actor == "cli")
        #expect(report.isOverridden)
        #expect(waitUntil("the app's observer to be called") { seen.count > 0 })
        #expect(seen.values == [50])
        #expect(harness.context[.pageSize] == 50)
        #expect(try client.get("beneficiaries.pageSize").value == 50)
    }

    @Test("A value the definition refuses is INVALID_VALUE and changes nothing")
    func setInvalidValue() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        expectRefusal(.invalidValue, containing: "beneficiaries.pageSize") {
            try client.set("beneficiaries.pageSize", to: 500)
        }
        expectRefusal(.invalidValue) { try client.set("beneficiaries.sortOrder", to: "size") }
        #expect(harness.context[.pageSize] == 30)
        #expect(harness.context.overrides.isEmpty)
    }

    @Test("An undefined key is NOT_FOUND with a suggestion")
    func undefinedKey() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        for call in [
            { _ = try client.get("beneficiaries.pagesize") }, { _ = try client.set("beneficiaries.pagesize", to: 5) },
        ] {
            expectRefusal(.notFound, containing: "did you mean 'beneficiaries.pageSize'?", call)
        }
    }

    @Test("toggle flips a bool flag each time and refuses other types")
    func toggle() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        #expect(try client.toggle("beneficiaries.showPendingList").value == true)
        #expect(harness.context[.showPendingList] == true)
        #expect(try client.toggle("beneficiaries.showPendingList").value == false)
        #expect(harness.context[.showPendingList] == false)
        expectRefusal(.invalidValue, containing: "only bool flags can be toggled") {
            try client.toggle("beneficiaries.pageSize")
        }
    }

    @Test("reset removes one override, reset all removes every one, and each says which")
    func reset() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        try client.set("beneficiaries.pageSize", to: 50)
        try client.toggle("beneficiaries.showPendingList")
        #expect(try client.reset("beneficiaries.pageSize") == ["beneficiaries.pageSize"])
        #expect(harness.context[.pageSize] == 30)
        #expect(try client.reset("beneficiaries.pageSize") == [])
        try client.set("beneficiaries.sortOrder", to: "name")
        #expect(try client.resetAll() == ["beneficiaries.showPendingList", "beneficiaries.sortOrder"])
        #expect(harness.context.overrides.isEmpty)
        #expect(try client.resetAll() == [])
    }

    @Test("list reports every key with its value, reason, source and override state")
    func list() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        try client.set("beneficiaries.sortOrder", to: "name")
        let keys = try client.list()
        #expect(
            keys.map(\.key) == [
                "appearance.darkMode", "beneficiaries.pageSize", "beneficiaries.showPendingList",
                "beneficiaries.sortOrder",
            ])
        let pageSize = try #require(keys.first { $0.key == "beneficiaries.pageSize" })
        #expect(pageSize.value == 30)
        #expect(pageSize.type == "int")
        #expect(pageSize.source.layer == "environment")
        #expect(!pageSize.isOverridden)
        #expect(keys.first { $0.key == "beneficiaries.sortOrder" }?.isOverridden == true)
        #expect(try client.list(prefix: "appearance.").map(\.key) == ["appearance.darkMode"])
    }

    @Test("get reports the metadata-level details the CLI prints, with the definition's description")
    func get() throws {
        let harness = try ServerHarness()
        let report = try harness.client().get("beneficiaries.showPendingList")
        #expect(report.value == false)
        #expect(report.reason == "STATIC")
        #expect(report.kind == "flag")
        #expect(report.source.layer == "definition")
        #expect(report.source.line != nil)
        #expect(report.description == "Show pending beneficiaries.")
    }

    @Test("explain shows every layer with a value, marks the winner, and lists the key's recent changes")
    func explain() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        try client.set("beneficiaries.pageSize", to: 60)
        let explanation = try client.explain("beneficiaries.pageSize")
        #expect(explanation.layers.map(\.source.layer) == ["definition", "environment", "override"])
        #expect(explanation.layers.map(\.value) == [20, 30, 60])
        #expect(explanation.layers.map(\.isWinner) == [false, false, true])
        #expect(explanation.layers[1].source.file == "<environment development>")
        #expect(explanation.layers[1].source.line == 2)
        #expect(explanation.recentChanges.last?.cause.actor == "cli")
        #expect(explanation.recentChanges.last?.changes.first?.oldValue == 30)
        #expect(explanation.recentChanges.last?.changes.first?.newValue == 60)
    }

    @Test("log lists the CLI's transaction with its cause, change and the observers that ran")
    func log() throws {
        let harness = try ServerHarness()
        let token = harness.context.observe(.showPendingList, label: "pending list") { _ in }
        defer { token.cancel() }
        let client = try harness.client()
        try client.toggle("beneficiaries.showPendingList")
        let transactions = try client.log()
        let last = try #require(transactions.last)
        #expect(last.cause.kind == "override")
        #expect(last.cause.description == "override by cli")
        #expect(last.changes.map(\.key) == ["beneficiaries.showPendingList"])
        #expect(last.observers.map(\.label) == ["pending list"])
        #expect(transactions.first?.cause.kind == "load")
        #expect(try client.log(limit: 1).map(\.id) == [last.id])
    }

    @Test("status reports health, counts and whether writes are accepted")
    func status() throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        try client.set("beneficiaries.pageSize", to: 40)
        let status = try client.status()
        #expect(status.server.app == "testapp")
        #expect(!status.isDegraded)
        #expect(status.keyCount == 4)
        #expect(status.overrideCount == 1)
        #expect(status.acceptsWrites)
        #expect(status.connections == 1)
        #expect(status.watchers == 0)
        #expect(status.flagProblems == [])
    }

    @Test("status names a flag whose rule does not compile, with the rule's position, and stays healthy")
    func statusNamesBrokenRule() throws {
        let context = try AppContext(
            definitions: "flags:\n  a: { default: false, targeting: { bogus: 1 } }\n  b: { default: 1 }\n")
        let harness = try ServerHarness(context: context)
        let status = try harness.client().status()
        #expect(!status.isDegraded)
        #expect(status.flagProblems?.count == 1)
        #expect(status.flagProblems?.first?.contains("<definitions 1>:2:37: unknown operator 'bogus'") == true)
    }
}
