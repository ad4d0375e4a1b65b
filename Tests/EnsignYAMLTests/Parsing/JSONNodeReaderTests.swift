import Testing

@testable import EnsignYAML

/// `.json` files are read as JSON (RFC 8259), into the same located tree YAML gives.
@Suite("JSON files read as JSON, with line and column")
struct JSONNodeReaderTests {
    let parser = YAMLParser()

    func value(_ text: String) throws -> YAMLNode {
        let documents = try parser.documents(fromJSON: Array(text.utf8), file: "f.json")
        try #require(documents.count == 1)
        return documents[0]
    }

    func failure(_ text: String) -> YAMLError? {
        #expect(throws: YAMLError.self) { try parser.documents(fromJSON: Array(text.utf8), file: "f.json") }
    }

    @Test("Every escape, a surrogate pair included, decodes to its code points")
    func escapes() throws {
        let node = try value(#""\ud83d\ude80 \"\\\/\b\f\n\r\t \u00e9 \u0000""#)
        #expect(node.scalarText == "🚀 \"\\/\u{8}\u{C}\n\r\t é \u{0}")
        #expect(node.resolvedScalar == .string("🚀 \"\\/\u{8}\u{C}\n\r\t é \u{0}"))
    }

    @Test("Code points libyaml refuses are read: U+007F–U+009F, U+FFFE, U+FFFF")
    func codePointsLibYAMLRefuses() throws {
        let text = "\u{7F}\u{85}\u{9F}\u{FFFE}\u{FFFF}"
        #expect(try value("\"\(text)\"").scalarText == text)
        #expect(throws: YAMLError.self) { try parser.documents(from: Array("\"\(text)\"".utf8), file: "f.yaml") }
    }

    @Test("A lone surrogate escape becomes U+FFFD, as Go's encoding/json reads it")
    func loneSurrogate() throws {
        #expect(try value(#""a\ud800b""#).scalarText == "a\u{FFFD}b")
        #expect(try value(#""\udc00""#).scalarText == "\u{FFFD}")
        #expect(try value(#""\ud83dx\u0041""#).scalarText == "\u{FFFD}xA")
    }

    @Test("Strings stay strings; numbers and literals resolve as JSON means them")
    func scalars() throws {
        let node = try value(#"["true", true, "1", 1, -0, 2.0, 1.5e3, 1E-2, null, "null"]"#)
        let resolved = node.sequenceElements?.map(\.resolvedScalar)
        #expect(
            resolved == [
                .string("true"), .bool(true), .string("1"), .int(1), .int(0), .double(2.0), .double(1500),
                .double(0.01), .null, .string("null"),
            ])
    }

    @Test("Nodes carry their line and column, counted in characters")
    func locations() throws {
        let node = try value("{\n  \"é\": [1,\r\n    \"x\"],\n\t\"b\": {}\n}")
        let entries = try #require(node.mappingEntries)
        #expect(node.location == SourcePosition(file: "f.json", line: 1, column: 1))
        #expect(entries[0].key.location == SourcePosition(file: "f.json", line: 2, column: 3))
        #expect(entries[0].value.location == SourcePosition(file: "f.json", line: 2, column: 8))
        #expect(entries[0].value.sequenceElements?[1].location == SourcePosition(file: "f.json", line: 3, column: 5))
        #expect(entries[1].key.location == SourcePosition(file: "f.json", line: 4, column: 2))
    }

    @Test("Keys that are canonically equivalent but differ in their scalars are two keys; equal ones are a duplicate")
    func duplicateKeys() throws {
        #expect(try value(#"{"é": 1, "e\u0301": 2}"#).mappingEntries?.count == 2)
        let error = failure("{\"a\": 1,\n \"a\": 2}")
        #expect(error?.kind == .duplicateKey)
        #expect(error?.location == SourcePosition(file: "f.json", line: 2, column: 2))
        #expect(error?.message == "duplicate key 'a' (first defined at line 1, column 2)")
    }

    @Test(
        "Text that is not JSON is an error at its position",
        arguments: [
            ("[1,]", "f.json:1:4: error: unexpected ']'; expected a JSON value"),
            ("{\"a\" 1}", "f.json:1:6: error: unexpected '1'; expected ':'"),
            ("[01]", "f.json:1:3: error: unexpected '1'; expected ',' or ']'"),
            ("{a: 1}", "f.json:1:2: error: unexpected 'a'; expected a key in double quotes"),
            ("\"abc", "f.json:1:1: error: this string is never closed"),
            ("\"a\tb\"", "f.json:1:3: error: a control character (U+0009) in a string; write it as \\u0009"),
            ("\"\\x\"", "f.json:1:2: error: unknown escape '\\x' in a string"),
            ("\"\\u12\"", "f.json:1:2: error: a \\u escape needs four hexadecimal digits"),
            ("1 2", "f.json:1:3: error: unexpected '2' after the JSON value"),
            ("[1.]", "f.json:1:4: error: a number needs a digit after its '.'"),
            ("tru", "f.json:1:1: error: unexpected 't'; expected a JSON value"),
            ("[", "f.json:1:2: error: the text ends where a value was expected"),
        ])
    func syntaxErrors(text: String, message: String) {
        #expect(failure(text)?.description == message)
    }

    @Test("Invalid UTF-8 in a string is an error naming the string")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("[\"ok\", \"".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        let error = #expect(throws: YAMLError.self) { try parser.documents(fromJSON: bytes, file: "f.json") }
        #expect(error?.description == "f.json:1:8: error: this string is not valid UTF-8")
    }

    @Test("White space only is no document; a byte-order mark is skipped")
    func emptyAndBOM() throws {
        #expect(try parser.documents(fromJSON: Array(" \n\t".utf8), file: "f.json").isEmpty)
        #expect(try parser.documents(fromJSON: [0xEF, 0xBB, 0xBF] + Array("{}".utf8), file: "f.json").count == 1)
    }

    @Test("Nesting deeper than the limit is an error, not a stack overflow")
    func deepNesting() {
        let error = failure(String(repeating: "[", count: 10_000))
        #expect(error?.kind == .limitExceeded)
        #expect(error?.location == SourcePosition(file: "f.json", line: 1, column: 129))
    }
}
