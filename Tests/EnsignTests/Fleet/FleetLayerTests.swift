import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("The fleet layer (4½)")
struct FleetLayerTests {
    static let definitions = """
        version: 1
        namespace: list
        flags:
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: recent }
          rollout:
            state: ENABLED
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [{ "==": [{ var: country }, FR] }, "on", null] }
        """

    private func value(_ value: JSONValue, revision: Int, key: String) -> ProvidedValue {
        ProvidedValue(value, origin: "etcd http://e1 rev \(revision)", path: "etcd:/app/\(key)")
    }

    @Test("Fleet values win over deployment files and lose to targeting and overrides, with etcd provenance")
    func layerOrder() throws {
        let context = try AppContext(
            definitions: Self.definitions, deploymentOverlays: ["flags:\n  list.pageSize: 30\n  list.rollout: false\n"])
        context.replaceFleetLayer(
            [
                "list.pageSize": value(50, revision: 7, key: "list.pageSize"),
                "list.rollout": value(true, revision: 8, key: "list.rollout"),
            ],
            source: "etcd http://e1", revision: 8)
        let details = context.details(forKeyNamed: "list.pageSize")
        #expect(details.value == 50 && details.reason == .staticValue)
        #expect(details.source.layer == .fleet)
        #expect(details.source.description == "fleet etcd http://e1 rev 7")
        #expect(context.value(forKeyNamed: "list.rollout") == true, "targeting returned null: the fleet decides")
        context.setEvaluationContext(EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"]))
        #expect(context.value(forKeyNamed: "list.rollout") == true)
        context.setEvaluationContext(EvaluationContext(targetingKey: "u1", attributes: ["country": "FR"]))
        #expect(context.details(forKeyNamed: "list.rollout").reason == .targetingMatch)
        try context.setOverride(keyNamed: "list.pageSize", to: 60)
        #expect(context.value(forKeyNamed: "list.pageSize") == 60)
        let layers = context.explain(keyNamed: "list.pageSize").layers
        #expect(layers.map(\.source.layer) == [.definition, .deployment, .fleet, .override])
        #expect(layers[2].source.location?.description == "etcd http://e1 rev 7")
    }

    @Test("Only keys whose value changed are notified; a new revision with the same values wakes nobody")
    func valueDiffed() throws {
        let context = try AppContext(definitions: Self.definitions)
        let batches = Recorder<ChangeBatch>()
        let token = context.observeAll { batch in batches.record(batch) }
        defer { token.cancel() }
        context.replaceFleetLayer(
            ["list.pageSize": value(50, revision: 2, key: "list.pageSize")], source: "etcd http://e1", revision: 2)
        context.replaceFleetLayer(
            [
                "list.pageSize": value(50, revision: 2, key: "list.pageSize"),
                "list.sortOrder": value("recent", revision: 3, key: "list.sortOrder"),
            ],
            source: "etcd http://e1", revision: 3)
        // A full re-read from another endpoint: same values, new origins.
        context.replaceFleetLayer(
            ["list.pageSize": ProvidedValue(50, origin: "etcd http://e2 rev 2", path: "etcd:/app/list.pageSize")],
            source: "etcd http://e2", revision: 9)
        let seen = batches.values
        #expect(seen.map { $0.changes.map(\.key) } == [["list.pageSize"]])
        #expect(seen.first?.cause == .fleet(source: "etcd http://e1 rev 2"))
        #expect(context.details(forKeyNamed: "list.pageSize").source.description == "fleet etcd http://e2 rev 2")
        context.replaceFleetLayer([:], source: "etcd http://e2", revision: 10)
        #expect(context.value(forKeyNamed: "list.pageSize") == 20)
        #expect(batches.count == 2)
    }

    @Test("A refused value leaves its key to the lower layers and is reported with its path; the rest applies")
    func refusedValue() throws {
        let context = try AppContext(definitions: Self.definitions)
        let problems = context.replaceFleetLayer(
            [
                "list.pageSize": value(500, revision: 4, key: "list.pageSize"),
                "list.sortOrder": value("name", revision: 5, key: "list.sortOrder"),
                "list.unknown": value(true, revision: 6, key: "list.unknown"),
            ],
            source: "etcd http://e1", revision: 6)
        #expect(context.value(forKeyNamed: "list.sortOrder") == "name")
        #expect(context.value(forKeyNamed: "list.pageSize") == 20)
        #expect(problems.map(\.severity) == [.error, .warning])
        #expect(
            problems[0].description.hasPrefix(
                "etcd:/app/list.pageSize: error: 'list.pageSize' value 500 is above the maximum of 100"))
        #expect(problems[1].message.contains("no flag or preference 'list.unknown' is defined"))
        let status = context.status
        #expect(status.isDegraded && status.since != nil)
        #expect(status.diagnostics.map(\.location.file) == ["etcd:/app/list.pageSize"], "warnings do not degrade")
        #expect(status.fleet?.revision == 6 && status.fleet?.isReachable == true)
        let logged = try #require(context.changeLog.last)
        #expect(logged.cause == .fleet(source: "etcd http://e1 rev 6"))
        #expect(logged.diagnostics.count == 2 && logged.changes.map(\.key) == ["list.sortOrder"])

        // The same problem again is not logged again; fixing it clears the status.
        let entries = context.changeLog.count
        context.replaceFleetLayer(
            ["list.pageSize": value(500, revision: 4, key: "list.pageSize")], source: "etcd http://e1", revision: 7)
        #expect(context.changeLog.count == entries + 1 && context.changeLog.last?.diagnostics.isEmpty == true)
        context.replaceFleetLayer(
            ["list.pageSize": value(40, revision: 8, key: "list.pageSize")], source: "etcd http://e1", revision: 8)
        #expect(context.value(forKeyNamed: "list.pageSize") == 40)
        #expect(!context.status.isDegraded && context.status.since == nil)
    }

    @Test(
        "While the store is unreachable the values stay, the status is degraded since the first failure, and each outage is logged once"
    )
    func unreachable() throws {
        let context = try AppContext(definitions: Self.definitions)
        context.replaceFleetLayer(
            ["list.pageSize": value(50, revision: 2, key: "list.pageSize")], source: "etcd http://e1", revision: 2)
        context.reportFleetUnreachable(source: "etcd http://e1", error: "connection refused")
        let since = try #require(context.status.since)
        context.reportFleetUnreachable(source: "etcd http://e2", error: "timed out")
        let status = context.status
        #expect(status.isDegraded && status.since == since)
        #expect(status.fleet?.lastError == "timed out" && status.fleet?.source == "etcd http://e2")
        #expect(status.diagnostics.first?.message.contains("unreachable since \(since) (timed out)") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 50, "the last good fleet layer stays in force")
        context.reportFleetReachable(source: "etcd http://e2", revision: 2)
        #expect(!context.status.isDegraded && context.status.fleet?.isReachable == true)
        let messages = context.changeLog.flatMap(\.diagnostics).map(\.message)
        #expect(messages.filter { $0.contains("unreachable") }.count == 1)
        #expect(messages.last == "the fleet store is reachable again")
    }

    @Test("A reload that changes the definitions checks the fleet values again")
    func reloadRechecks() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  size: { type: int, default: 1, maximum: 10 }\n")
        let context = try AppContext(configuration: AppContextConfiguration(definitionsDirectory: directory.path))
        context.replaceFleetLayer(
            ["size": ProvidedValue(50, origin: "etcd http://e1 rev 3", path: "etcd:/app/size")],
            source: "etcd http://e1",
            revision: 3)
        #expect(context.value(forKeyNamed: "size") == 1 && context.status.isDegraded)
        try directory.write("app.yaml", "flags:\n  size: { type: int, default: 1, maximum: 100 }\n")
        #expect(context.reload().isEmpty)
        #expect(context.value(forKeyNamed: "size") == 50)
        #expect(!context.status.isDegraded)
    }
}
