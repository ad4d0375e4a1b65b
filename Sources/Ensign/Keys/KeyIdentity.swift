import Synchronization

/// The shared identity of a typed key: its name, and a cache of where the key lives in the
/// current snapshot so that a read is an array index, not a string lookup.
///
/// An implementation detail of ``ContextKey``, package because the key's `identity` is (the
/// context's inlinable subscripts read it). The cache packs a layout identifier (40 bits) and a slot
/// (24 bits) into one atomic word; layout identifiers are never reused, so a cached slot is
/// used only with the layout it was computed for.
@usableFromInline
package final class KeyIdentity: Sendable {
    let name: String
    let kind: FlagDefinition.Kind
    /// The key path Observation tracks reads of this key by.
    let observationKeyPath: KeyPath<AppContext, Int> & Sendable
    private let slotCache = Atomic<UInt64>(0)

    init(name: String, kind: FlagDefinition.Kind) {
        self.name = name
        self.kind = kind
        self.observationKeyPath = \AppContext.[observedKey: name]
    }

    static let slotBits: UInt64 = 24
    static let slotMask: UInt64 = (1 << slotBits) - 1

    /// The slot for this key in `layout`, from the cache when it was filled for this layout.
    @inline(__always)
    func slot(in layout: KeyLayout) -> Int? {
        let cached = slotCache.load(ordering: .relaxed)
        if cached >> Self.slotBits == layout.identifier {
            return Int(truncatingIfNeeded: cached & Self.slotMask)
        }
        return slowSlot(in: layout)
    }

    private func slowSlot(in layout: KeyLayout) -> Int? {
        guard let slot = layout.slot(for: name) else { return nil }
        if slot <= Int(Self.slotMask) {
            slotCache.store(layout.identifier << Self.slotBits | UInt64(slot), ordering: .relaxed)
        }
        return slot
    }
}
