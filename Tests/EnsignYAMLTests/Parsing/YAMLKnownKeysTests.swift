import EnsignTestSupport
import EnsignTestTraits
import Testing

@testable import EnsignYAML

@Suite("Known keys")
struct YAMLKnownKeysTests {
    @Test("A key matches the name with exactly its bytes, or none (2,000 random sets, 40 keys each)", .blocksItsThread)
    func matchesByBytes() {
        var random = SplitMix64(seed: 0xC0FFEE)
        // Letters that make names share prefixes and lengths, and two that take two bytes.
        let letters = Array("abcde.é\u{301}")
        func randomText(maximumLength: UInt64) -> String {
            String(
                (0..<random.next(below: maximumLength + 1)).map { _ in
                    letters[Int(random.next(below: UInt64(letters.count)))]
                })
        }
        for _ in 0..<2_000 {
            var names: [String] = []
            for _ in 0..<(1 + random.next(below: UInt64(YAMLKnownKeys.capacity))) {
                let name = randomText(maximumLength: 20)
                if !names.contains(where: { Array($0.utf8) == Array(name.utf8) }), !names.contains(name) {
                    names.append(name)
                }
            }
            let known = YAMLKnownKeys(names)
            for _ in 0..<40 {
                var key: String
                switch random.next(below: 4) {
                case 0: key = names[Int(random.next(below: UInt64(names.count)))]
                case 1: key = String(names[Int(random.next(below: UInt64(names.count)))].dropLast())
                case 2: key = names[Int(random.next(below: UInt64(names.count)))] + randomText(maximumLength: 2)
                default: key = randomText(maximumLength: 20)
                }
                let expected = names.firstIndex { Array($0.utf8) == Array(key.utf8) }
                #expect(known.index(of: key) == expected, "'\(key)' among \(names)")
                let bytes = Array(key.utf8)
                #expect(bytes.withUnsafeBytes { known.index(of: $0) } == expected, "'\(key)' as bytes among \(names)")
            }
        }
    }

    @Test("Names longer than 16 bytes and the empty name are matched too")
    func longAndEmptyNames() {
        let known = YAMLKnownKeys(["", "sixteen-letters!", "seventeen-letters", "a-much-longer-field-name"])
        #expect(known.index(of: "") == 0)
        #expect(known.index(of: "sixteen-letters!") == 1)
        #expect(known.index(of: "seventeen-letters") == 2)
        #expect(known.index(of: "a-much-longer-field-name") == 3)
        #expect(known.index(of: "seventeen-letterz") == nil)
        #expect(known.index(of: "sixteen-letters") == nil)
        #expect(known.index(of: "a-much-longer-field-nam") == nil)
    }
}
