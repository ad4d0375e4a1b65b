import Ensign

/// (a) A static flag read through a typed key, against what a hand-rolled flag store would do:
/// a `[String: Bool]` lookup of the same 28-byte key, the same behind a `Mutex`, an array slot.
enum StaticReadEntries {
    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try StaticReadFixture() }
        let iterations = Iterations(full: 2_000_000, quick: 200_000)
        return BenchmarkGroup(
            name: "static flag read",
            kind: .timed([
                ReferenceDictionaries.benchmark(iterations: iterations) { try fixture.value.reference },
                Benchmark(
                    id: "mutex", name: "Mutex<[String: Bool]> lookup", iterations: iterations, reference: "dictionary"
                ) { count in try fixture.value.reference.lookUpLocked(count: count) },
                Benchmark(id: "array slot", name: "[Bool] slot read", iterations: iterations, reference: "dictionary") {
                    count in
                    let fixture = try fixture.value
                    let (slots, slot) = (fixture.slots, fixture.slot)
                    for _ in 0..<count { blackHole(slots[slot &+ opaqueZero]) }
                },
                Benchmark(
                    id: "typed key", name: "AppContext[FlagKey<Bool>]", iterations: iterations,
                    reference: "dictionary", target: .ratio(atMost: 1.5, aim: 0.5, allocationsAtMost: 0),
                    note: "a context built from YAML with 100 flags; the key resolves to true in production"
                ) { count in
                    let fixture = try fixture.value
                    let (context, keys) = (fixture.context, fixture.typedKeys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                Benchmark(
                    id: "snapshot", name: "ContextSnapshot[FlagKey<Bool>]", iterations: iterations,
                    reference: "dictionary",
                    note: "the snapshot taken once, outside the loop; each read tells Observation through it"
                ) { count in
                    let fixture = try fixture.value
                    let (snapshot, keys) = (fixture.context.snapshot, fixture.typedKeys)
                    for _ in 0..<count { blackHole(snapshot[keys[opaqueZero]]) }
                },
                Benchmark(
                    id: "untracked snapshot", name: "untrackedSnapshot[FlagKey<Bool>]", iterations: iterations,
                    reference: "dictionary",
                    note: "as the snapshot entry, without telling Observation of each read"
                ) { count in
                    let fixture = try fixture.value
                    let (snapshot, keys) = (fixture.context.untrackedSnapshot, fixture.typedKeys)
                    for _ in 0..<count { blackHole(snapshot[keys[opaqueZero]]) }
                },
                Benchmark(
                    id: "empty loop", name: "empty loop (harness overhead)", iterations: iterations,
                    reference: "dictionary", note: "included in every figure: the opaque index and the black hole"
                ) { count in
                    let fixture = try fixture.value
                    let slots = fixture.slots
                    for _ in 0..<count { blackHole(slots.count &+ opaqueZero) }
                },
            ]))
    }
}

/// One context and the same flags in plain collections.
final class StaticReadFixture {
    let context: AppContext
    let reference: ReferenceDictionaries
    let slots: [Bool]
    let slot: Int
    /// One element: the typed key, as app code declares it.
    let typedKeys: [FlagKey<Bool>]

    init() throws {
        context = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        let snapshot = context.snapshot
        var dictionary: [String: Bool] = [:]
        for key in snapshot.keys { dictionary[key] = snapshot.value(forKeyNamed: key)?.boolValue ?? false }
        reference = ReferenceDictionaries(dictionary, key: GeneratedDefinitions.staticKey)
        slots = snapshot.keys.map { dictionary[$0]! }
        slot = snapshot.keys.firstIndex(of: GeneratedDefinitions.staticKey) ?? 0
        typedKeys = [FlagKey(GeneratedDefinitions.staticKey, default: false)]
        guard snapshot.keys.count >= 100, GeneratedDefinitions.staticKey.utf8.count == 28 else {
            throw BenchmarkFailure("the static-read fixture should have 100 flags and a 28-byte key")
        }
        guard context[typedKeys[0]], reference.value == true, slots[slot] else {
            throw BenchmarkFailure("\(GeneratedDefinitions.staticKey) should read true in every store")
        }
    }
}
