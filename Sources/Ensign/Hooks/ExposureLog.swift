import EnsignSupport
import Synchronization

/// The exposures a context tree has recorded: the (key, variant, targeting key) triples
/// whose first evaluation ran the tree's exposure hooks
/// (``EvaluationHook/runsForExposuresOnly``), so later evaluations of the same triple run none.
///
/// A SwiftUI body reads a key many times a second; only the first read of each result is an
/// exposure. Two levels keep the repeat cheap:
///
/// - the set of triples, under a lock, which every new result goes through; bounded: past
///   ``capacity`` triples it starts again (an exposure may then be recorded twice, which an
///   analysis of exposures tolerates; memory that grows with every user of a server does not);
/// - per slot, the generation of the last root snapshot whose value for the slot was found
///   in the set. A root snapshot's values are fixed, so a read of the same slot in the same
///   snapshot is the same triple, and the read checks one atomic word instead of hashing.
final class ExposureLog: Sendable {
    /// One recorded result. A flag without variants is told apart by its value instead, so
    /// that a change of value is a new exposure there too.
    struct Exposure: Hashable, Sendable {
        let key: String
        let variant: String?
        let value: JSONValue?
        let targetingKey: String?

        init(key: String, variant: String?, value: JSONValue, targetingKey: String?) {
            self.key = key
            self.variant = variant
            self.value = variant == nil ? value : nil
            self.targetingKey = targetingKey
        }
    }

    /// How many triples the set holds before it starts again.
    let capacity: Int
    private let recorded: LockedState<Set<Exposure>>
    /// Made when the first exposure hook is registered, sized for the slots then defined: one
    /// word holding the count, then one word per slot. The memory's address rather than an
    /// object, so a read loads it without a retain or generic metadata (and as an integer,
    /// which is `Sendable` where a pointer is not); `0` until made, freed with the log.
    private let confirmed = Atomic<Int>(0)

    init(capacity: Int = 100_000) {
        self.capacity = capacity
        recorded = LockedState([])
    }

    /// Prepares the per-slot words for a layout of `slotCount` keys (once: later layouts with
    /// more keys take the set for their extra slots).
    func prepare(slotCount: Int) {
        guard confirmed.load(ordering: .acquiring) == 0 else { return }
        let count = Swift.max(64, slotCount * 2)
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: (count + 1) * MemoryLayout<UInt64>.stride, alignment: MemoryLayout<UInt64>.alignment)
        let words = memory.bindMemory(to: Atomic<UInt64>.self, capacity: count + 1)
        words.initialize(to: Atomic(UInt64(count)))
        for index in 1...count { (words + index).initialize(to: Atomic(0)) }
        let (stored, _) = confirmed.compareExchange(
            expected: 0, desired: Int(bitPattern: memory), ordering: .acquiringAndReleasing)
        if !stored { Self.free(memory) }
    }

    /// Whether the value of `slot` in the root snapshot of `generation` was already found in the set.
    @inline(__always)
    func isConfirmed(slot: Int, generation: UInt64) -> Bool {
        guard let words = words(for: slot) else { return false }
        return words[slot + 1].load(ordering: .relaxed) == generation &+ 1
    }

    /// The words, when `slot` has one.
    @inline(__always)
    private func words(for slot: Int) -> UnsafeMutablePointer<Atomic<UInt64>>? {
        guard let memory = UnsafeMutableRawPointer(bitPattern: confirmed.load(ordering: .acquiring)) else { return nil }
        let words = memory.assumingMemoryBound(to: Atomic<UInt64>.self)
        return slot < Int(words[0].load(ordering: .relaxed)) ? words : nil
    }

    private static func free(_ memory: UnsafeMutableRawPointer) {
        let words = memory.assumingMemoryBound(to: Atomic<UInt64>.self)
        words.deinitialize(count: Int(words[0].load(ordering: .relaxed)) + 1)
        memory.deallocate()
    }

    deinit {
        if let memory = UnsafeMutableRawPointer(bitPattern: confirmed.load(ordering: .acquiring)) { Self.free(memory) }
    }

    /// Records `exposure`; returns whether it is new. `slot` and `generation`, when given,
    /// are the root snapshot the result came from, for ``isConfirmed(slot:generation:)``.
    func record(_ exposure: Exposure, slot: Int?, generation: UInt64?) -> Bool {
        // The slot's word changes under the set's lock, so a reset (which clears both under
        // it) cannot fall between the two and leave a slot confirmed for a forgotten result.
        recorded.withLock { set in
            if set.count >= capacity, !set.contains(exposure) { set.removeAll(keepingCapacity: true) }
            let isNew = set.insert(exposure).inserted
            if let slot, let generation, let words = words(for: slot) {
                words[slot + 1].store(generation &+ 1, ordering: .relaxed)
            }
            return isNew
        }
    }

    /// Forgets every exposure: the next evaluation of each result is an exposure again.
    func removeAll() {
        recorded.withLock { set in
            set.removeAll()
            guard let memory = UnsafeMutableRawPointer(bitPattern: confirmed.load(ordering: .acquiring)) else { return }
            let words = memory.assumingMemoryBound(to: Atomic<UInt64>.self)
            for index in 1...Int(words[0].load(ordering: .relaxed)) { words[index].store(0, ordering: .relaxed) }
        }
    }
}
