import EnsignTestSupport
import Testing

@testable import Ensign

/// A definition set's keys are in `String` order, whether they are compared by bytes (ASCII
/// keys) or as strings.
@Suite("Definition set key order")
struct DefinitionSetOrderTests {
    @Test("Keys sort as String sorts them, ASCII or not")
    func order() {
        let keys = [
            "b", "a.b", "a-b", "A", "a", "ab", "a.a", "Z9", "_x", "e\u{301}x", "f", "é", "ea", "zz", "\u{1F600}", "e",
            "café", "cafe", "cafe\u{301}s",
        ]
        var text = "version: 1\nflags:\n"
        for key in keys {
            let escaped = key.unicodeScalars.map {
                $0.isASCII ? String($0) : "\\U\(String($0.value, radix: 16).leftPadded)"
            }
            text += "  \"\(escaped.joined())\": { default: true }\n"
        }
        let loaded = loadDefinitions(["flags/app.yaml": text])
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)")
        #expect(loaded.definitions.keys == keys.sorted())
        #expect(loaded.definitions.keys.count == keys.count)
    }
}

extension DefinitionSetOrderTests {
    @Test("ASCII keys, sorted by their bytes, come out in String's order", arguments: 0..<8)
    func asciiOrder(seed: Int) {
        // Upper and lower case, digits, '_', '-' and '.', of many lengths and shared prefixes.
        let alphabet = Array("aAbBzZ09_-.")
        var random = SplitMix64(seed: UInt64(seed))
        var keys = Set<String>()
        while keys.count < 300 {
            let length = Int.random(in: 1...12, using: &random)
            keys.insert(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        let definitions = keys.map { FlagDefinition(inMemoryKey: $0, type: .bool, default: .bool(true)) }
        let set = DefinitionSet(definitions: definitions)
        #expect(set.keys == keys.sorted(), "seed \(seed)")
        #expect(DefinitionSet.sortedOrder(of: Array(keys)).map { Array(keys)[$0] } == keys.sorted())
    }
}

extension DefinitionSetOrderTests {
    @Test(
        "Keys with a long shared prefix, keys that are prefixes of others, and NUL bytes sort in String's order",
        arguments: 0..<8)
    func sharedPrefixOrder(seed: Int) {
        // Lengths around the eight bytes compared as one integer after the shared prefix.
        let alphabet: [Character] = ["a", "b", "Z", "0", ".", "\u{0}"]
        var random = SplitMix64(seed: 0x50_0000 + UInt64(seed))
        let prefix = seed % 2 == 0 ? "catalog.area" : ""
        var keys = Set<String>()
        while keys.count < 400 {
            let length = Int.random(in: 0...11, using: &random)
            keys.insert(prefix + String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        let listed = Array(keys)
        #expect(DefinitionSet.sortedOrder(of: listed).map { listed[$0] } == listed.sorted(), "seed \(seed)")
        #expect(DefinitionSet.sortedOrder(of: []) == [])
        #expect(DefinitionSet.sortedOrder(of: [prefix]) == [0])
    }
}

extension String {
    /// Eight hexadecimal digits, for a YAML `\U` escape.
    fileprivate var leftPadded: String { String(repeating: "0", count: max(0, 8 - count)) + self }
}
