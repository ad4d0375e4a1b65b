/// The scalar keys of a mapping with where each stands, for duplicate checks: compared by
/// their bytes (see ``ExactText``), scanned while few, hashed past a handful.
///
/// It runs for every key of every mapping a file has, so it works from the key's bytes as
/// libyaml gave them and keeps what it computed: while scanning, a key is compared only with
/// keys of the same length and first bytes (a definition's fields never are); once hashed,
/// each key's hash is kept, so growing the table hashes nothing again (a dictionary of
/// ``ExactText`` hashed the 10,000 keys of a large `flags:` mapping about twice over).
/// Hashes come from `Hasher`, seeded per process, so a file cannot be written to collide.
/// Positions are kept compact: a key's file name is looked up only for an error message.
struct MappingKeyIndex {
    private struct Key {
        let text: String
        /// The length and first seven bytes: different signatures, different keys.
        let signature: UInt64
        /// `Hasher`'s hash of the bytes, once the keys are hashed.
        var hash: Int
        let position: CompactSourcePosition
    }

    /// The keys, in file order.
    private var keys: [Key] = []
    /// Open addressing over `keys` (an index plus one; 0 is empty), twice their count or
    /// more; empty while the keys are few enough to scan.
    private var table: [Int32] = []

    /// Keys scanned before they are hashed.
    private static let scanLimit = 8

    /// Records `key`, whose UTF-8 bytes are `bytes`, at `position`; returns where it already
    /// stood instead, if it did.
    mutating func insert(
        _ key: String, bytes: UnsafeRawBufferPointer, at position: CompactSourcePosition
    ) -> CompactSourcePosition? {
        if table.isEmpty, keys.count >= Self.scanLimit { startHashing() }
        let (signature, hash, found, freeSlot) = find(key, bytes: bytes)
        if let found { return keys[found].position }
        if keys.isEmpty { keys.reserveCapacity(Self.scanLimit) }  // one allocation, not four
        keys.append(Key(text: key, signature: signature, hash: hash ?? 0, position: position))
        if table.isEmpty { return nil }
        table[freeSlot] = Int32(keys.count)
        if keys.count * 2 > table.count { rebuildTable(capacity: table.count * 2) }
        return nil
    }

    /// Where `key` stands, if it does.
    func location(of key: String) -> SourcePosition? {
        var text = key
        let found = text.withUTF8 { find(key, bytes: UnsafeRawBufferPointer($0)).found }
        return found.map { keys[$0].position.sourcePosition }
    }

    /// The index of the earlier key with `key`'s bytes, if any, with `key`'s signature and,
    /// once the keys are hashed, its hash and the free slot where its probe ended.
    @inline(__always)
    private func find(
        _ key: String, bytes: UnsafeRawBufferPointer
    ) -> (signature: UInt64, hash: Int?, found: Int?, freeSlot: Int) {
        let signature = Self.signature(of: bytes)
        guard !table.isEmpty else {
            for index in keys.indices where keys[index].signature == signature && keys[index].text.isExactly(key) {
                return (signature, nil, index, 0)
            }
            return (signature, nil, nil, 0)
        }
        let hash = Self.hash(of: bytes)
        var slot = hash & (table.count - 1)
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if keys[index].hash == hash, keys[index].text.isExactly(key) { return (signature, hash, index, slot) }
            slot = (slot + 1) & (table.count - 1)
        }
        return (signature, hash, nil, slot)
    }

    /// Every key's text, in file order.
    var texts: [String] { keys.map(\.text) }

    /// Hashes the scanned keys and indexes them.
    private mutating func startHashing() {
        for index in keys.indices {
            var text = keys[index].text
            keys[index].hash = text.withUTF8 { Self.hash(of: UnsafeRawBufferPointer($0)) }
        }
        rebuildTable(capacity: 4 * Self.scanLimit)
    }

    private mutating func rebuildTable(capacity: Int) {
        table = Array(repeating: 0, count: capacity)
        for (index, key) in keys.enumerated() {
            var slot = key.hash & (capacity - 1)
            while table[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            table[slot] = Int32(index + 1)
        }
    }

    private static func signature(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var signature = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in 0..<min(bytes.count, 7) {
            signature |= UInt64(bytes[index]) << (8 * UInt64(index))
        }
        return signature
    }

    private static func hash(of bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }
}
