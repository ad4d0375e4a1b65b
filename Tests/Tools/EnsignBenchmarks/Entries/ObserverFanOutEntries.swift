import Ensign

/// (f) One toggle with 100,000 observers spread over 10,000 keys, against the same toggle
/// with 1,000 observers over 1,000 keys. The toggled key has 10 observers in both, so if only
/// that key's observers run, the two cost the same.
enum ObserverFanOutEntries {
    static func group() -> BenchmarkGroup {
        let small = Lazy { FanOutFixture(keys: 1000, observers: 1000) }
        let large = Lazy { FanOutFixture(keys: 10_000, observers: 100_000) }
        let iterations = Iterations(full: 20_000, quick: 2000)
        return .timed(
            "observer fan-out",
            [
                Benchmark(
                    id: "1k observers", name: "toggle, 1,000 observers on 1,000 keys", iterations: iterations,
                    verify: { small.verifyCalls() }
                ) { count in try small.value.toggle(count) },
                Benchmark(
                    id: "100k observers", name: "toggle, 100,000 observers on 10,000 keys", iterations: iterations,
                    reference: "1k observers", target: .ratio(atMost: 1.5),
                    note: "the toggled key has 10 observers in both contexts; the target is a ratio of about 1",
                    verify: { large.verifyCalls() }
                ) { count in try large.value.toggle(count) },
            ])
    }
}

/// A context of `keys` bool flags with `observers` observers: 10 on the toggled key, the rest
/// spread evenly over the other keys.
final class FanOutFixture {
    static let observersOnToggledKey = 10

    let context: AppContext
    let key: FlagKey<Bool>
    let toggledKeyCalls = CallCounter()
    let otherCalls = CallCounter()
    private var tokens: [ObservationToken] = []
    private var value = false
    private(set) var toggles = 0

    init(keys: Int, observers: Int) {
        let names = (0..<keys).map { "fanout.key\($0)" }
        context = AppContext(values: Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.bool(false)) }))
        key = FlagKey(names[0], default: false)
        tokens.reserveCapacity(observers)
        let (toggledKeyCalls, otherCalls) = (self.toggledKeyCalls, self.otherCalls)
        for _ in 0..<Self.observersOnToggledKey {
            tokens.append(context.observe(key) { _ in toggledKeyCalls.increment() })
        }
        for index in 0..<(observers - Self.observersOnToggledKey) {
            let other = FlagKey(names[1 + index % (keys - 1)], default: false)
            tokens.append(context.observe(other) { _ in otherCalls.increment() })
        }
    }

    func toggle(_ count: Int) throws {
        for _ in 0..<count {
            value.toggle()
            try context.setOverride(key, to: value)
        }
        toggles += count
    }
}

extension Lazy where Value == FanOutFixture {
    /// Exactly the toggled key's observers ran, once per toggle.
    func verifyCalls() -> String? {
        guard let fixture = try? value else { return "the fixture was never built" }
        let expected = fixture.toggles * FanOutFixture.observersOnToggledKey
        guard fixture.toggledKeyCalls.count == expected, fixture.otherCalls.count == 0 else {
            return "expected \(expected) calls of the toggled key's observers and none of the others, got "
                + "\(fixture.toggledKeyCalls.count) and \(fixture.otherCalls.count)"
        }
        return nil
    }
}
