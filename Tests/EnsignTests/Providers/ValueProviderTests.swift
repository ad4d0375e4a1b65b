import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import EnsignTesting
import Foundation
import Testing

@testable import Ensign

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

    @Test("An in-memory provider feeds the fleet layer, reports its health, and is named in provenance and status")
    func inMemoryFleetLayer() throws {
        let context = try AppContext(definitions: ListFixture.definitions)
        let provider = InMemoryValueProvider(["list.pageSize": 50], name: "memory test")
        context.attach(provider)
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
        context.attach(provider)
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
