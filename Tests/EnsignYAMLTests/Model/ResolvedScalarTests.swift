import EnsignTestSupport
import EnsignTestTraits
import Testing

@testable import EnsignYAML

@Suite("Core-schema scalar resolution")
struct ResolvedScalarTests {
    private func resolve(_ text: String) throws -> ResolvedScalar {
        try #require(try YAMLParser().document(from: "value: \(text)", file: "t.yaml")?.entry(forKey: "value"))
            .value.resolvedScalar
    }

    @Test(
        "Only true and false, in any case, are booleans",
        arguments: [("true", true), ("True", true), ("TRUE", true), ("false", false), ("FALSE", false)])
    func booleans(text: String, expected: Bool) throws {
        #expect(try resolve(text) == .bool(expected))
    }

    @Test("A plain scalar is a boolean exactly when it lowercases to true or false")
    func booleansMatchLowercasing() {
        let pieces = [
            "t", "T", "r", "R", "u", "U", "e", "E", "f", "F", "a", "A", "l", "L", "s", "S", "4", "@", "ŧ", "E\u{301}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 3...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let expected: ResolvedScalar? =
                switch text.lowercased() {
                case "true": .bool(true)
                case "false": .bool(false)
                default: nil
                }
            let resolved = YAMLNode.resolvePlain(text)
            if let expected {
                #expect(resolved == expected, "\(text)")
            } else if case .bool = resolved {
                Issue.record("'\(text)' resolved as \(resolved)")
            }
        }
        #expect(YAMLNode.resolvePlain("tRuE") == .bool(true))
        #expect(YAMLNode.resolvePlain("fAlSe") == .bool(false))
        #expect(YAMLNode.resolvePlain("tru") == .string("tru"))
        #expect(YAMLNode.resolvePlain("Truee") == .string("Truee"))
    }

    @Test("YAML 1.1 words yes, no, on and off stay strings", arguments: ["yes", "no", "on", "off", "Yes", "OFF", "y"])
    func yamlOneOneWordsAreStrings(text: String) throws {
        #expect(try resolve(text) == .string(text))
    }

    @Test(
        "Integers: decimal, signed, hexadecimal and octal",
        arguments: [("42", 42), ("-7", -7), ("+3", 3), ("0x1F", 31), ("0o17", 15), ("0", 0)])
    func integers(text: String, expected: Int) throws {
        #expect(try resolve(text) == .int(expected))
    }

    @Test("Floats: fractions, exponents and infinities")
    func floats() throws {
        #expect(try resolve("1.5") == .double(1.5))
        #expect(try resolve("-0.25") == .double(-0.25))
        #expect(try resolve("1e3") == .double(1000))
        #expect(try resolve(".5") == .double(0.5))
        #expect(try resolve(".inf") == .double(.infinity))
        #expect(try resolve("-.Inf") == .double(-.infinity))
        guard case .double(let nan) = try resolve(".nan") else {
            Issue.record(".nan did not resolve to a double")
            return
        }
        #expect(nan.isNaN)
    }

    @Test("Null spellings", arguments: ["null", "Null", "NULL", "~", ""])
    func nulls(text: String) throws {
        #expect(try resolve(text) == .null)
    }

    @Test("Quoted scalars are strings whatever their text")
    func quotedAreStrings() throws {
        #expect(try resolve("\"true\"") == .string("true"))
        #expect(try resolve("'20'") == .string("20"))
    }

    @Test("Explicit tags override resolution")
    func explicitTags() throws {
        #expect(try resolve("!!str 20") == .string("20"))
        #expect(try resolve("!!float 2") == .double(2))
        #expect(try resolve("!!int \"12\"") == .int(12))
    }

    @Test("Text that only looks numeric stays a string", arguments: ["1.2.3", "0x", "12abc", "1e", "0x-5", "v1"])
    func almostNumbers(text: String) throws {
        #expect(try resolve(text) == .string(text))
    }

    @Test("Random number-like text resolves as the core schema's patterns say (5,000 scalars)", .blocksItsThread)
    func matchesThePatterns() {
        var random = SplitMix64(seed: 0x5CA1A7)
        let alphabet = Array("0123456789+-.eExXoOaAfFnNiI")
        let words = ["inf", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "0x", "0o", "null", "true", "fAlSe", "~", "."]
        for _ in 0..<5_000 {
            var text = ""
            if random.next(below: 4) == 0 {
                // A signed or unsigned integer of up to 22 digits: around Int's 19.
                text = ["", "-", "+"][Int(random.next(below: 3))]
                for _ in 0...random.next(below: 22) { text += String(random.next(below: 10)) }
            }
            for _ in 0..<Int(random.next(below: 24)) where text.isEmpty || random.next(below: 4) == 0 {
                if random.next(below: 8) == 0 {
                    text += words[Int(random.next(below: UInt64(words.count)))]
                } else if random.next(below: 3) == 0 {
                    text.append(alphabet[Int(random.next(below: UInt64(alphabet.count)))])
                } else {
                    text.append(Character(String(random.next(below: 10))))
                }
            }
            let resolved = YAMLNode.resolvePlain(text)
            let expected = Self.referenceResolution(text)
            #expect(Self.same(resolved, expected), "'\(text)' resolved to \(resolved), the patterns give \(expected)")
        }
    }

    /// The core schema's regular expressions, read literally.
    private static func referenceResolution(_ text: String) -> ResolvedScalar {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if text.lowercased() == "true" { return .bool(true) }
        if text.lowercased() == "false" { return .bool(false) }
        if text.wholeMatch(of: /[-+]?[0-9]+/) != nil {
            return Int(text).map(ResolvedScalar.int) ?? .double(Double(text)!)
        }
        if let match = text.wholeMatch(of: /0x([0-9a-fA-F]+)/), let value = Int(match.1, radix: 16) {
            return .int(value)
        }
        if let match = text.wholeMatch(of: /0o([0-7]+)/), let value = Int(match.1, radix: 8) { return .int(value) }
        if text.wholeMatch(of: /[-+]?\.(inf|Inf|INF)/) != nil {
            return .double(text.hasPrefix("-") ? -.infinity : .infinity)
        }
        if text.wholeMatch(of: /\.(nan|NaN|NAN)/) != nil { return .double(.nan) }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil {
            return Double(text).map(ResolvedScalar.double) ?? .string(text)
        }
        return .string(text)
    }

    /// Equal, with NaN equal to NaN.
    private static func same(_ left: ResolvedScalar, _ right: ResolvedScalar) -> Bool {
        if case .double(let leftValue) = left, case .double(let rightValue) = right, leftValue.isNaN {
            return rightValue.isNaN
        }
        return left == right
    }

    @Test("An integer too large for Int is still a number")
    func hugeInteger() throws {
        #expect(try resolve("123456789012345678901234567890") == .double(123456789012345678901234567890.0))
    }
}
