import EnsignTestSupport
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

/// `jsonText` is public output (the control protocol, `ensign` commands): its exact text.
@Suite("JSON text of a value")
struct JSONTextTests {
    @Test("Members sorted, strings escaped as RFC 8259 requires, whole doubles with .0, non-finite as null")
    func exactText() {
        let value: JSONValue = .object([
            "b": .array([.int(-3), .double(2), .double(0.5), .double(.infinity), .null, .bool(true)]),
            "a": .string("q\"\\\n\r\t\u{1}é😀"),
        ])
        #expect(value.jsonText == #"{"a":"q\"\\\n\r\t\u0001é😀","b":[-3,2.0,0.5,null,null,true]}"#)
    }

    @Test("Unsorted, the same text reads back as the same value")
    func unsortedReadsBack() throws {
        let value: JSONValue = .object(["z": .string("x\u{7}"), "a": .array([.double(1e300), .int(.max)])])
        var bytes: [UInt8] = []
        value.appendJSON(to: &bytes, sortingMembers: false)
        let node = try #require(try YAMLParser().documents(fromJSON: bytes, file: "t.json").first)
        #expect(JSONValue(node) == value)
    }

    @Test("Exact text is the storage-order text, refused exactly when some double would not read back")
    func exactTextOrRefusal() {
        var generator = SplitMix64(seed: 23)
        let doubles: [Double] = [0.5, -2, 1e300, .infinity, -.infinity, .nan, -0.0, 0]
        func randomValue(depth: Int) -> JSONValue {
            switch generator.next() % (depth > 2 ? 4 : 6) {
            case 0: return .int(Int(truncatingIfNeeded: generator.next()))
            case 1: return .double(doubles[Int(generator.next() % UInt64(doubles.count))])
            case 2: return .string(generator.next() % 2 == 0 ? "on" : "a\"b")
            case 3: return generator.next() % 2 == 0 ? .null : .bool(true)
            case 4: return .array((0..<Int(generator.next() % 4)).map { _ in randomValue(depth: depth + 1) })
            default:
                return .object(
                    Dictionary(
                        (0..<Int(generator.next() % 4)).map { ("k\($0)", randomValue(depth: depth + 1)) },
                        uniquingKeysWith: { first, _ in first }))
            }
        }
        func isExact(_ value: JSONValue) -> Bool {
            switch value {
            case .double(let number): return number.isFinite && !(number == 0 && number.sign == .minus)
            case .array(let elements): return elements.allSatisfy(isExact)
            case .object(let members): return members.values.allSatisfy(isExact)
            default: return true
            }
        }
        for _ in 0..<3_000 {
            let value = randomValue(depth: 0)
            var (exact, plain): ([UInt8], [UInt8]) = ([], [])
            let isWritten = value.appendExactJSON(to: &exact)
            value.appendJSON(to: &plain, sortingMembers: false)
            #expect(isWritten == isExact(value), "\(value)")
            if isWritten { #expect(exact == plain, "\(value)") }
        }
    }

    @Test("Every string is quoted as a byte-by-byte escaper quotes it, with and without characters to escape")
    func quotingMatchesReference() {
        let alphabet: [String] = [
            "a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "e\u{301}", "😀", "/",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            var output: [UInt8] = []
            JSONValue.appendQuoted(text, to: &output)
            #expect(output == Self.referenceQuoted(text), "\(Array(text.unicodeScalars))")
            // Foundation's parser, not ours, reads it back as the same text.
            let decoded = try? JSONSerialization.jsonObject(with: Data(output), options: .fragmentsAllowed)
            #expect((decoded as? String).map { $0.unicodeScalars.elementsEqual(text.unicodeScalars) } == true)
        }
    }

    /// RFC 8259 quoting, one byte at a time: the short escapes for quote, backslash, newline,
    /// return and tab, `\u00xx` for the other control characters, every other byte as it is.
    private static func referenceQuoted(_ text: String) -> [UInt8] {
        var output = Array("\"".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): output += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): output += Array("\\n".utf8)
            case UInt8(ascii: "\r"): output += Array("\\r".utf8)
            case UInt8(ascii: "\t"): output += Array("\\t".utf8)
            case 0..<0x20: output += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: output.append(byte)
            }
        }
        return output + Array("\"".utf8)
    }
}
