import Ensign
import Testing

@testable import EnsignJSON

/// The JSON reader used for control requests and `--context`: errors say what is wrong in
/// words a person can act on, and input that could mean two things is refused.
@Suite("JSON reader: refusals that name the problem")
struct JSONParserTests {
    static let refusals: [(text: String, offset: Int, message: String)] = [
        (#"{"op":"set","op":"reset"}"#, 12, #"duplicate member "op""#),
        (#"{"a":{"b":1,"b":2}}"#, 12, #"duplicate member "b""#),
        ("1e400", 0, "the number 1e400 is out of range (beyond ±1.8e308)"),
        (#"{"value":-2E+999}"#, 9, "the number -2E+999 is out of range (beyond ±1.8e308)"),
        ("\u{FF}", 0, "unexpected byte 0xC3"),
        ("[@]", 1, "unexpected character '@' (0x40)"),
        ("[\u{7}]", 1, "unexpected byte 0x07"),
    ]

    @Test("A refused text names the offset and the problem", arguments: refusals.indices)
    func refuses(index: Int) {
        let (text, offset, message) = Self.refusals[index]
        #expect(throws: JSONParseError(offset: offset, message: message)) { try JSONValue(jsonText: text) }
    }

    @Test("A lone 0xFF byte is named as a byte, not as the character ÿ")
    func invalidByte() {
        #expect(throws: JSONParseError(offset: 1, message: "unexpected byte 0xFF")) {
            try JSONValue(jsonBytes: [UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")])
        }
    }

    @Test("Large but finite numbers and equal keys in different objects are accepted")
    func accepts() throws {
        #expect(try JSONValue(jsonText: "1e308") == .double(1e308))
        #expect(try JSONValue(jsonText: #"{"a":{"k":1},"b":{"k":2}}"#) == ["a": ["k": 1], "b": ["k": 2]])
    }
}
