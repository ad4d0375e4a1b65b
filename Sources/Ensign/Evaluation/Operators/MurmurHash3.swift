/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), fed
/// incrementally so that flagd's bucketing key `flagKey + targetingKey` can be hashed without
/// building the concatenated string.
///
/// ```swift
/// var hasher = MurmurHash3()
/// hasher.combine("my-flag")
/// hasher.combine("user-42")
/// let hash = hasher.finalize()   // == MurmurHash3.hash("my-flaguser-42")
/// ```
struct MurmurHash3 {
    private static let c1: UInt32 = 0xcc9e_2d51
    private static let c2: UInt32 = 0x1b87_3593

    private var state: UInt32
    /// Bytes not yet forming a whole 4-byte block, little-endian.
    private var pending: UInt32 = 0
    private var pendingCount: UInt32 = 0
    private var length: UInt32 = 0

    /// Starts a hash with `seed` (flagd uses 0).
    init(seed: UInt32 = 0) {
        state = seed
    }

    /// The hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String, seed: UInt32 = 0) -> UInt32 {
        var hasher = MurmurHash3(seed: seed)
        hasher.combine(text)
        return hasher.finalize()
    }

    /// Feeds `text`'s UTF-8 bytes.
    mutating func combine(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { combine(bytes: $0) }
        if done == nil {
            for byte in text.utf8 { combine(byte: byte) }
        }
    }

    /// Feeds bytes.
    mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while pendingCount != 0, index < bytes.count {
            combine(byte: bytes[index])
            index += 1
        }
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 4 <= bytes.count {
                // Blocks are little-endian 32-bit words, whatever the platform's byte order.
                mix(block: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
                length &+= 4
                index += 4
            }
        }
        while index < bytes.count {
            combine(byte: bytes[index])
            index += 1
        }
    }

    /// Feeds one byte.
    mutating func combine(byte: UInt8) {
        pending |= UInt32(byte) << (8 * pendingCount)
        pendingCount += 1
        length &+= 1
        if pendingCount == 4 {
            mix(block: pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// The hash of everything fed so far.
    func finalize() -> UInt32 {
        var hash = state
        if pendingCount > 0 { hash ^= Self.scramble(pending) }
        hash ^= length
        hash ^= hash >> 16
        hash &*= 0x85eb_ca6b
        hash ^= hash >> 13
        hash &*= 0xc2b2_ae35
        hash ^= hash >> 16
        return hash
    }

    private mutating func mix(block: UInt32) {
        state ^= Self.scramble(block)
        state = state << 13 | state >> 19
        state = state &* 5 &+ 0xe654_6b64
    }

    private static func scramble(_ block: UInt32) -> UInt32 {
        var value = block &* c1
        value = value << 15 | value >> 17
        return value &* c2
    }
}
