import Synchronization

/// The reference reads are compared with: a `[String: Bool]` lookup of one 28-byte key among
/// about 100, averaged over several dictionary instances.
///
/// Swift seeds each dictionary's hashing per instance (from its storage's address), so whether
/// the key shares its probe sequence with other keys — and pays for extra full-string
/// comparisons — changes from one instance, and one run, to the next: a single instance cost
/// anywhere from 1× to 2× its best from run to run. Spreading the lookups evenly over 16
/// instances measures the expected cost, the same in every run.
final class ReferenceDictionaries {
    static let instanceCount = 16

    /// The reference entry (id `dictionary`) of a group whose fixture holds `reference`.
    static func benchmark(iterations: Iterations, _ reference: @escaping () throws -> ReferenceDictionaries)
        -> Benchmark
    {
        Benchmark(
            id: "dictionary", name: "[String: Bool] lookup, 28-byte key", iterations: iterations,
            note: "averaged over \(instanceCount) dictionaries: Swift seeds hashing per instance"
        ) { count in try reference().lookUp(count: count) }
    }

    /// A timed group: the reference entry, then the entries `entries` makes, each compared with
    /// it. The fixture, which holds the reference, is built on first use.
    static func group<Fixture: DictionaryReferenced>(
        _ name: String, iterations: Iterations, fixture makeFixture: @autoclosure @escaping () throws -> Fixture,
        entries: (DictionaryComparisons<Fixture>) -> [Benchmark]
    ) -> BenchmarkGroup {
        let comparisons = DictionaryComparisons(fixture: Lazy(makeFixture), iterations: iterations)
        let reference = benchmark(iterations: iterations) { try comparisons.fixture.value.reference }
        return .timed(name, [reference] + entries(comparisons))
    }

    private let dictionaries: [[String: Bool]]
    private let lockedDictionaries: [LockedDictionary]
    /// One element: a copy of the key in its own storage, so lookups compare bytes, not pointers.
    private let keys: [String]

    init(_ contents: [String: Bool], key: String) {
        let pairs = contents.sorted { $0.key < $1.key }
        dictionaries = (0..<Self.instanceCount).map { _ in Dictionary(uniqueKeysWithValues: pairs) }
        lockedDictionaries = (0..<Self.instanceCount).map { _ in
            LockedDictionary(Dictionary(uniqueKeysWithValues: pairs))
        }
        keys = [String(decoding: Array(key.utf8), as: UTF8.self)]
    }

    /// The value stored for the key (the same in every instance).
    var value: Bool? { dictionaries[0][keys[0]] }

    /// Looks the key up `count` times, spread evenly over the instances.
    func lookUp(count: Int) {
        let keys = self.keys
        for (instance, dictionary) in dictionaries.enumerated() {
            for _ in 0..<share(of: count, instance: instance) { blackHole(dictionary[keys[opaqueZero]]) }
        }
    }

    /// Looks the key up `count` times under each instance's `Mutex`.
    func lookUpLocked(count: Int) {
        let keys = self.keys
        for (instance, locked) in lockedDictionaries.enumerated() {
            for _ in 0..<share(of: count, instance: instance) {
                blackHole(locked.mutex.withLock { $0[keys[opaqueZero]] })
            }
        }
    }

    private func share(of count: Int, instance: Int) -> Int {
        count / Self.instanceCount + (instance < count % Self.instanceCount ? 1 : 0)
    }
}

/// A fixture whose group compares its entries with the reference dictionaries.
protocol DictionaryReferenced: AnyObject {
    var reference: ReferenceDictionaries { get }
}

/// Makes the entries of a group compared with the reference dictionaries: each runs the
/// group's iterations, names the reference, and gets the fixture built.
struct DictionaryComparisons<Fixture: DictionaryReferenced> {
    let fixture: Lazy<Fixture>
    let iterations: Iterations

    /// An entry whose `body(fixture, n)` performs `n` operations.
    func entry(
        id: String, name: String, target: Target? = nil, note: String? = nil,
        body: @escaping (_ fixture: Fixture, _ count: Int) throws -> Void
    ) -> Benchmark {
        let fixture = self.fixture
        return Benchmark(
            id: id, name: name, iterations: iterations, reference: "dictionary", target: target, note: note
        ) { count in try body(fixture.value, count) }
    }
}

/// A dictionary behind a `Mutex`, as a hand-rolled thread-safe flag store would keep it.
final class LockedDictionary: Sendable {
    let mutex: Mutex<[String: Bool]>

    init(_ dictionary: [String: Bool]) {
        mutex = Mutex(dictionary)
    }
}
