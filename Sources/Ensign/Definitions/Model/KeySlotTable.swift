import EnsignYAML

/// Each key's index in a set's sorted keys, found by exact Unicode scalars (as ``ExactText``
/// matches): an open-addressing table of 8 bytes a bucket, holding part of the key's hash and
/// its index, with the keys themselves read from the set's own array.
///
/// A `[ExactText: Int]` took 24 bytes a bucket (the key's `String` and an `Int`): 395 KB for
/// 10,000 keys, where this table takes 131 KB. A lookup costs the same: one hash, a probe or
/// two, and one exact comparison of the key found.
struct KeySlotTable: Sendable {
    /// `0` for an empty bucket, else the hash's upper 32 bits and the index plus one.
    private let buckets: [UInt64]
    private let mask: Int

    /// A table of `keys`, which must differ from each other by Unicode scalars.
    init(keys: [String]) {
        precondition(keys.count < Int(UInt32.max), "more keys than a table indexes")
        var capacity = 8
        while capacity * 3 < keys.count * 4 { capacity <<= 1 }  // at most three quarters full
        mask = capacity - 1
        var buckets = [UInt64](repeating: 0, count: capacity)
        for (index, key) in keys.enumerated() {
            let hash = Self.hash(key)
            var bucket = hash & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Self.tag(hash) << 32 | UInt64(index + 1)
        }
        self.buckets = buckets
    }

    /// The index of `name` in `keys` (the array the table was built from), if it is there.
    func index(of name: String, in keys: [String]) -> Int? {
        let hash = Self.hash(name)
        let tag = Self.tag(hash)
        var bucket = hash & mask
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if keys[index].isExactly(name) { return index }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// The key's hash by its UTF-8 bytes, as ``ExactText`` hashes it (seeded per process).
    private static func hash(_ key: String) -> Int {
        var hasher = Hasher()
        ExactText(key).hash(into: &hasher)
        return hasher.finalize()
    }

    /// The part of a hash a bucket keeps: the bits above those that pick the bucket.
    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash) >> 32) }
}
