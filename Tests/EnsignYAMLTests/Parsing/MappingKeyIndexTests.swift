import EnsignTestSupport
import Testing

@testable import EnsignYAML

/// The duplicate-key index against a dictionary of byte arrays: scanned and hashed, across
/// its growth, with keys made to share lengths and first bytes, canonically equivalent keys
/// that differ in their bytes, and keys long enough to wrap the length in its signature.
@Suite("The duplicate-key index of a mapping")
struct MappingKeyIndexTests {
    @Test("Random keys: each insert finds exactly the earlier key with the same bytes", arguments: 0..<24)
    func agreesWithModel(seed: Int) {
        var random = SplitMix64(seed: 0x4B45_0000 + UInt64(seed))
        // Few distinct keys for some seeds (duplicates while scanning), many for others (growth).
        let distinct = [3, 9, 40, 700][seed % 4]
        let pool = (0..<distinct).map { Self.key($0, random: &random) }
        var index = MappingKeyIndex()
        var model: [[UInt8]: CompactSourcePosition] = [:]
        for step in 0..<(distinct * 3) {
            let key = pool[Int(random.next(below: UInt64(pool.count)))]
            let position = CompactSourcePosition(file: 0, line: step + 1, column: 1)
            var text = key
            let found = text.withUTF8 { index.insert(key, bytes: UnsafeRawBufferPointer($0), at: position) }
            let bytes = Array(key.utf8)
            #expect(found == model[bytes], "seed \(seed), step \(step), key \(bytes.prefix(12))")
            if model[bytes] == nil { model[bytes] = position }
            #expect(index.location(of: key)?.line == Int(model[bytes]!.line))
        }
        #expect(Set(index.texts.map { Array($0.utf8) }) == Set(model.keys))
        #expect(index.location(of: "never-a-key-\(seed)") == nil)
    }

    /// Keys that collide on purpose: a handful of lengths and first bytes, NFC and NFD forms,
    /// and some longer than 255 bytes.
    static func key(_ number: Int, random: inout SplitMix64) -> String {
        switch number % 5 {
        case 0: "field\(number % 10)"  // same length and first bytes as its neighbours
        case 1: "caf\u{E9}\(number / 5)"  // NFC
        case 2: "cafe\u{301}\(number / 5)"  // NFD: `==` to the NFC key before it, not its bytes
        case 3: String(repeating: "k", count: 256 + Int(random.next(below: 3))) + "\(number)"
        default: "area\(number / 100).flag\(number)"
        }
    }
}
