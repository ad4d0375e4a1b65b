import Testing

@testable import Ensign

extension EvaluationTests {
    @Suite("MurmurHash3 x86 32-bit")
    struct MurmurHash3Tests {
        static let vectors: [(bytes: [UInt8], seed: UInt32, hash: UInt32)] = [
            ([], 0, 0),
            ([], 1, 0x514E_28B7),
            ([], 0xFFFF_FFFF, 0x81F1_6F39),
            ([0, 0, 0, 0], 0, 0x2362_F9DE),
            ([0xFF, 0xFF, 0xFF, 0xFF], 0, 0x7629_3B50),
            (Array("a".utf8), 0x9747_B28C, 0x7FA0_9EA6),
            (Array("ab".utf8), 0x9747_B28C, 0x7487_5592),
            (Array("abc".utf8), 0x9747_B28C, 0xC84A_62DD),
            (Array("abcd".utf8), 0x9747_B28C, 0xF047_8627),
            (Array("aaaa".utf8), 0x9747_B28C, 0x5A97_808A),
            (Array("Hello, world!".utf8), 0x9747_B28C, 0x2488_4CBA),
            (Array("The quick brown fox jumps over the lazy dog".utf8), 0x9747_B28C, 0x2FA8_26CD),
            (Array("ππππππππ".utf8), 0x9747_B28C, 0xD580_63C1),
            (Array("hello".utf8), 0, 0x248B_FA47),
        ]

        @Test("Known test vectors hash to their published values")
        func knownVectors() {
            for vector in Self.vectors {
                var hasher = MurmurHash3(seed: vector.seed)
                vector.bytes.withUnsafeBufferPointer { hasher.combine(bytes: $0) }
                #expect(hasher.finalize() == vector.hash, "bytes \(vector.bytes) seed \(vector.seed)")
            }
        }

        @Test("Hashing in pieces equals hashing the concatenation, whatever the split")
        func incrementalMatchesWhole() {
            let text = "fractional-flag-shorthandjon@company.com"
            let whole = MurmurHash3.hash(text)
            for split in 0...text.utf8.count {
                let bytes = Array(text.utf8)
                var hasher = MurmurHash3()
                hasher.combine(String(decoding: bytes[..<split], as: UTF8.self))
                hasher.combine(String(decoding: bytes[split...], as: UTF8.self))
                #expect(hasher.finalize() == whole, "split at \(split)")
            }
        }

        @Test("Strings are hashed as UTF-8, bridged or native")
        func hashesUTF8() {
            var hasher = MurmurHash3(seed: 0x9747_B28C)
            for byte in "ππππππππ".utf8 { hasher.combine(byte: byte) }
            #expect(hasher.finalize() == 0xD580_63C1)
            #expect(MurmurHash3.hash("ππππππππ", seed: 0x9747_B28C) == 0xD580_63C1)
        }
    }
}
