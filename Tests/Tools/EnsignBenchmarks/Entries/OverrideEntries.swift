import Ensign
import Synchronization

/// (e) An override write that changes a value and notifies the key's one observer.
enum OverrideEntries {
    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try OverrideFixture() }
        return .timed(
            "override write",
            [
                Benchmark(
                    id: "override", name: "setOverride + notify 1 observer",
                    iterations: Iterations(full: 50_000, quick: 5000),
                    note: "each write flips the value, so each one notifies; the call count is checked",
                    verify: { fixture.verifyCalls() }
                ) { count in
                    let fixture = try fixture.value
                    try fixture.toggle(count)
                }
            ])
    }
}

/// A context with one observer on the toggled key.
final class OverrideFixture {
    let context: AppContext
    let key = FlagKey(GeneratedDefinitions.staticKey, default: false)
    let calls = CallCounter()
    private let token: ObservationToken
    private var value: Bool
    private(set) var writes = 0

    init() throws {
        context = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        let calls = self.calls
        token = context.observe(key, label: "benchmark observer") { _ in calls.increment() }
        value = context[key]
    }

    func toggle(_ count: Int) throws {
        for _ in 0..<count {
            value.toggle()
            try context.setOverride(key, to: value)
        }
        writes += count
    }

    deinit {
        token.cancel()
    }
}

extension Lazy where Value == OverrideFixture {
    /// The observer ran once per write.
    func verifyCalls() -> String? {
        guard let fixture = try? value else { return "the fixture was never built" }
        let calls = fixture.calls.count
        return calls == fixture.writes ? nil : "the observer ran \(calls) times for \(fixture.writes) writes"
    }
}

/// Counts observer calls from any thread.
final class CallCounter: Sendable {
    private let calls = Atomic<Int>(0)

    func increment() {
        calls.wrappingAdd(1, ordering: .relaxed)
    }

    var count: Int { calls.load(ordering: .relaxed) }
}
