import Ensign

/// (a) A static flag read through a typed key, against what a hand-rolled flag store would do:
/// a `[String: Bool]` lookup of the same 28-byte key, the same behind a `Mutex`, an array slot.
enum StaticReadEntries {
    static func group() -> BenchmarkGroup {
        ReferenceDictionaries.group(
            "static flag read", iterations: Iterations(full: 2_000_000, quick: 200_000),
            fixture: try StaticReadFixture()
        ) { entries in
            [
                entries.entry(id: "mutex", name: "Mutex<[String: Bool]> lookup") { fixture, count in
                    fixture.reference.lookUpLocked(count: count)
                },
                entries.entry(id: "array slot", name: "[Bool] slot read") { fixture, count in
                    let (slots, slot) = (fixture.slots, fixture.slot)
                    for _ in 0..<count { blackHole(slots[slot &+ opaqueZero]) }
                },
                entries.entry(
                    id: "typed key", name: "AppContext[FlagKey<Bool>]",
                    target: .ratio(atMost: 1.5, aim: 0.5, allocationsAtMost: 0),
                    note: "a context built from YAML with 100 flags; the key resolves to true in production"
                ) { fixture, count in
                    let (context, keys) = (fixture.context, fixture.typedKeys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                entries.entry(
                    id: "snapshot", name: "ContextSnapshot[FlagKey<Bool>]",
                    note: "the snapshot taken once, outside the loop; each read tells Observation through it",
                    body: readingSnapshot { $0.snapshot }),
                entries.entry(
                    id: "untracked snapshot", name: "untrackedSnapshot[FlagKey<Bool>]",
                    note: "as the snapshot entry, without telling Observation of each read",
                    body: readingSnapshot { $0.untrackedSnapshot }),
                entries.entry(
                    id: "empty loop", name: "empty loop (harness overhead)",
                    note: "included in every figure: the opaque index and the black hole"
                ) { fixture, count in
                    let slots = fixture.slots
                    for _ in 0..<count { blackHole(slots.count &+ opaqueZero) }
                },
            ]
        }
    }

    /// Reads of the typed key from the snapshot `take` takes once, outside the loop: the two
    /// snapshot entries differ only in which snapshot that is.
    private static func readingSnapshot(
        _ take: @escaping (AppContext) -> ContextSnapshot
    ) -> (StaticReadFixture, Int) -> Void {
        { fixture, count in
            let (snapshot, keys) = (take(fixture.context), fixture.typedKeys)
            for _ in 0..<count { blackHole(snapshot[keys[opaqueZero]]) }
        }
    }
}

/// One context and the same flags in plain collections.
final class StaticReadFixture: DictionaryReferenced {
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
