import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import EnsignTesting
import Foundation
import Testing

@testable import Ensign

/// The list sample in a definitions directory with a staging overlay (`list.sortOrder: name`)
/// and a deployment file (`list.pageSize: 50`), for the file provider's tests.
private struct StagingFiles {
    let directory: TemporaryDirectory
    let deployment: String

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("flags/list.yaml", ListFixture.definitions)
        try directory.write("flags/environments/staging.yaml", "flags:\n  list.sortOrder: name\n")
        deployment = try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 50\n")
    }

    /// The files layer's configuration: these files, in staging.
    var configuration: AppContextConfiguration {
        AppContextConfiguration(
            definitionsDirectory: directory.path + "/flags", environment: "staging", deploymentFiles: [deployment])
    }
}

@Suite("Value providers")
struct ValueProviderTests {
    @Test("The in-memory provider passes the compatibility test")
    func inMemoryCompatibility() throws {
        let provider = InMemoryValueProvider(["list.pageSize": 50, "list.showPending": true])
        let test = ValueProviderCompatibilityTest(definitions: ListFixture.definitions, quietPeriod: .milliseconds(100))
        let outage: (Bool) -> Void = { isOut in
            if isOut { provider.makeUnavailable(error: "the test cut it off") } else { provider.makeAvailable() }
        }
        try test.check(provider, outage: outage) { round in
            switch round {
            case .attached:
                provider["list.pageSize"] = 60
                return ["list.pageSize": 60, "list.showPending": true]
            case .stopped:
                provider["list.sortOrder"] = "name"
                return ["list.sortOrder": "name"]
            }
        }
    }

    @Test(
        "The file provider passes the compatibility test: a deployment file edit is delivered by its watcher",
        .blocksItsThread)
    func fileCompatibility() throws {
        let files = try StagingFiles()
        let directory = files.directory
        var configuration = files.configuration
        configuration.pollInterval = .milliseconds(100)
        configuration.watchDebounce = .milliseconds(10)
        let provider = FileValueProvider(configuration: configuration)
        let test = ValueProviderCompatibilityTest(quietPeriod: .milliseconds(400))
        try test.check(provider) { round in
            switch round {
            case .attached:
                try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 60\n")
                return ["list.pageSize": 60, "list.sortOrder": "name"]
            case .stopped:
                try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 70\n")
                return ["list.pageSize": 70]
            }
        }
    }

    @Test("The file provider shows what layers 2–4 resolve to, with the layer and position of each value")
    func fileCurrentValues() throws {
        let files = try StagingFiles()
        let provider = FileValueProvider(configuration: files.configuration)
        #expect(provider.name == "files \(files.directory.path)/flags")
        #expect(provider.layer == .files)
        let held = provider.currentValues()
        #expect(held.diagnostics.isEmpty)
        #expect(
            held.values.mapValues(\.value) == [
                "list.pageSize": 50, "list.sortOrder": "name", "list.showPending": false,
            ])
        #expect(held.values["list.pageSize"]?.provenance.description == "deployment \(files.deployment):2:18")
        #expect(held.values["list.sortOrder"]?.provenance.layer == .environment)
        #expect(held.values["list.showPending"]?.provenance.layer == .definition)
        let context = try AppContext(files: provider)
        #expect(context.details(forKeyNamed: "list.pageSize").source == held.values["list.pageSize"]?.provenance)
    }

    @Test("A context refuses to attach a files-layer provider: it is built from one")
    func filesAreNotAttached() throws {
        let directory = try TemporaryDirectory()
        try directory.write("flags/list.yaml", ListFixture.definitions)
        let provider = FileValueProvider(
            configuration: AppContextConfiguration(definitionsDirectory: directory.path + "/flags", environment: "test")
        )
        let context = try AppContext(definitions: ListFixture.definitions)
        #expect(throws: ValueProviderError.notAttachable(provider.name)) { try context.attach(provider) }
    }

    @Test("An in-memory provider feeds the fleet layer, reports its health, and is named in provenance and status")
    func inMemoryFleetLayer() throws {
        let context = try AppContext(definitions: ListFixture.definitions)
        let provider = InMemoryValueProvider(["list.pageSize": 50], name: "memory test")
        try context.attach(provider)
        defer { provider.stop() }
        let details = context.details(forKeyNamed: "list.pageSize")
        #expect(details.value == 50 && details.reason == .staticValue)
        #expect(details.source.description == "fleet memory test rev 1")
        #expect(context.status.fleet?.source == "memory test" && context.status.fleet?.revision == 1)

        provider["list.sortOrder"] = "name"
        #expect(context.details(forKeyNamed: "list.sortOrder").source.description == "fleet memory test rev 2")
        #expect(context.details(forKeyNamed: "list.pageSize").source.description == "fleet memory test rev 1")

        provider.makeUnavailable(error: "timed out")
        let status = context.status
        #expect(status.isDegraded && status.fleet?.isReachable == false && status.fleet?.lastError == "timed out")
        provider["list.pageSize"] = 80
        #expect(context.value(forKeyNamed: "list.pageSize") == 50, "changes wait until the store is reachable")
        provider.makeAvailable()
        #expect(!context.status.isDegraded)
        #expect(context.value(forKeyNamed: "list.pageSize") == 80)

        provider["list.pageSize"] = 500
        #expect(context.value(forKeyNamed: "list.pageSize") == 20, "a refused value leaves the key to the lower layers")
        #expect(
            context.status.diagnostics.contains {
                $0.key == "list.pageSize" && $0.location.file == "memory test:list.pageSize"
            })
    }

    @Test("An observer may change an in-memory provider during its delivery: the change is delivered next, in order")
    func observerWritesBack() throws {
        let context = try AppContext(definitions: ListFixture.definitions)
        let provider = InMemoryValueProvider(["list.pageSize": 50])
        try context.attach(provider)
        defer { provider.stop() }
        let seen = Recorder<JSONValue?>()
        let token = context.observe(keysNamed: ["list.pageSize"]) { batch in
            let value = batch.changes.first?.newValue
            seen.record(value)
            if value == 60 { provider["list.pageSize"] = 70 }
        }
        defer { token.cancel() }
        provider["list.pageSize"] = 60
        #expect(seen.values == [60, 70])
        #expect(context.value(forKeyNamed: "list.pageSize") == 70)
    }

    @Test(
        "The compatibility test reports a provider that delivers after stop, one with no provenance, and a missed outage",
        .blocksItsThread
    )
    func compatibilityFailures() throws {
        let leaky = LeakyProvider(name: "leaky", origin: "")
        let test = ValueProviderCompatibilityTest(
            definitions: ListFixture.definitions, timeout: .milliseconds(500), quietPeriod: .milliseconds(100))
        let failures = test.run(leaky) { round in
            leaky.set(round == .attached ? 60 : 70)
            return ["list.pageSize": round == .attached ? 60 : 70]
        }
        let checks = Set(failures.map(\.check))
        #expect(checks.contains("provenance"), "\(failures)")
        #expect(checks.contains("stop"), "\(failures)")
        #expect(failures.contains { $0.message.contains("after stop() returned") })
        let never = InMemoryValueProvider(["list.pageSize": 50])
        let noOutage: (Bool) -> Void = { _ in }
        let outageFailures = test.run(never, outage: noOutage) { _ in
            never["list.pageSize"] = 60
            return ["list.pageSize": 60]
        }
        #expect(outageFailures.map(\.check) == ["outage"], "\(outageFailures)")
        #expect(outageFailures.first?.message.contains("did not report its store unreachable") == true)
        #expect(throws: ValueProviderCompatibilityTest.Failures.self) {
            try test.check(LeakyProvider(name: "", origin: "x")) { _ in ["list.pageSize": 20] }
        }
    }
}

/// A broken provider: its `stop()` does not stop it, and its values may have no provenance.
private final class LeakyProvider: ValueProvider {
    let name: String
    let origin: String
    private let state = LockedState<(updates: ValueProviderUpdates?, value: Int)>((nil, 50))

    init(name: String, origin: String) {
        self.name = name
        self.origin = origin
    }

    var layer: ProviderLayer { .fleet }

    func currentValues() -> ProvidedValues {
        let value = state.withLock { $0.value }
        return ProvidedValues(values: [
            "list.pageSize": ProvidedValue(.int(value), origin: origin, path: "leaky:pageSize")
        ])
    }

    func start(delivering updates: ValueProviderUpdates) {
        state.withLock { $0.updates = updates }
        updates.replaceAll(currentValues().values, revision: nil)
    }

    func stop() {}

    func set(_ value: Int) {
        let updates = state.withLock { state in
            state.value = value
            return state.updates
        }
        updates?.replaceAll(currentValues().values, revision: nil)
    }
}
