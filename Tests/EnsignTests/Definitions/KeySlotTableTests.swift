import EnsignTestSupport
import Testing

@testable import Ensign
@testable import EnsignYAML

/// The key table must answer exactly as a dictionary of ``ExactText`` does: every key finds
/// its own index, and text that is no key (canonically equivalent text included) finds none.
@Suite("Key slot table")
struct KeySlotTableTests {
    /// Keys drawn from a small alphabet with accents both composed and decomposed, so that
    /// prefixes, near misses and canonically equivalent pairs are common.
    static func randomKey(using generator: inout some RandomNumberGenerator) -> String {
        let pieces = ["a", "b", ".", "é", "e\u{301}", "flag", "area1", "-", "ß", "Ω", "\u{0}", "x"]
        let length = Int.random(in: 0...6, using: &generator)
        return (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test("Agrees with a dictionary of exact keys", arguments: [0, 1, 6, 7, 13, 200, 3_000])
    func agreesWithDictionary(count: Int) {
        var generator = SplitMix64(seed: UInt64(count) &* 7919 &+ 1)
        var keys: [String] = []
        var reference: [ExactText: Int] = [:]
        while keys.count < count {
            let key = Self.randomKey(using: &generator)
            guard reference[ExactText(key)] == nil else { continue }
            reference[ExactText(key)] = keys.count
            keys.append(key)
        }
        let table = KeySlotTable(keys: keys)
        for (index, key) in keys.enumerated() {
            #expect(table.index(of: key, in: keys) == index, "\(key.unicodeScalars.map(\.value))")
        }
        for _ in 0..<2_000 {
            let probe = Self.randomKey(using: &generator)
            #expect(table.index(of: probe, in: keys) == reference[ExactText(probe)])
        }
    }

    @Test("A composed key does not find its decomposed twin, nor a key its prefix")
    func exactMatching() {
        let keys = ["caf\u{E9}", "cafe", "cafe.menu"]
        let table = KeySlotTable(keys: keys)
        #expect(table.index(of: "cafe\u{301}", in: keys) == nil)
        #expect(table.index(of: "caf\u{E9}", in: keys) == 0)
        #expect(table.index(of: "cafe.men", in: keys) == nil)
        #expect(table.index(of: "cafe.menu", in: keys) == 2)
    }
}
