import Testing

@testable import EnsignYAML

/// JSON written from a node tree must read back, through the JSON reader and through
/// libyaml, as the same values: what `ensign export` and a build without YAML rely on.
@Suite("JSONNodeWriter")
struct JSONNodeWriterTests {
    /// A node's meaning under the core schema, for comparing trees regardless of style.
    static func meaning(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar: return "\(node.resolvedScalar)"
        case .sequence(let elements): return "[" + elements.map(meaning).joined(separator: ",") + "]"
        case .mapping(let entries):
            return "{" + entries.map { "\($0.key.scalarText ?? "?")=\(meaning($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// Every string a hostile or unlucky value may hold: JSON's escapes, the C0 and C1
    /// controls, the characters libyaml refuses raw, and characters outside the BMP.
    static let awkwardStrings: [String] =
        ["", "plain", "\"quoted\"", "back\\slash", "tab\there", "line\nbreak", "cr\r", "nul\u{0}", "bell\u{7}"]
        + [
            "del\u{7F}", "next-line\u{85}", "c1\u{9F}", "bom\u{FEFF}", "nonchar\u{FFFE}\u{FFFF}", "🚩 flag",
            "é e\u{301}",
        ]
        + ["true", "20", "null", "~", "yes", "0x1F", ".inf", "- item", "key: value", "#comment", "{}", "[1]"]

    @Test("Every awkward string reads back unchanged through the JSON reader and through libyaml")
    func stringsRoundTrip() throws {
        let node = YAMLNode.mapping(Self.awkwardStrings.enumerated().map { ("k\($0.offset)", .string($0.element)) })
        let text = try JSONNodeWriter().text(for: node)
        let viaJSON = try #require(try YAMLParser().documents(fromJSON: Array(text.utf8), file: "w.json").first)
        let viaYAML = try #require(try YAMLParser().document(from: text, file: "w.yaml"))
        for (index, string) in Self.awkwardStrings.enumerated() {
            #expect(
                viaJSON.entry(forKey: "k\(index)")?.value.resolvedScalar == .string(string),
                "\(string.debugDescription)")
            #expect(
                viaYAML.entry(forKey: "k\(index)")?.value.resolvedScalar == .string(string),
                "\(string.debugDescription)")
        }
    }

    @Test("YAML's scalars are written as what they mean: hex, octal, tags, null forms, big integers, doubles")
    func scalarsKeepTheirMeaning() throws {
        let yaml = """
            hex: 0x1F
            octal: 0o17
            tagged: !!str 12
            forcedFloat: !!float 3
            tilde: ~
            empty:
            upper: TRUE
            big: 123456789012345678901234
            fraction: 1.50
            exponent: 2e3
            negativeZero: -0.0
            words: [yes, no, on, off]
            nested: { list: [1, [2, { deep: x }]], empty: {}, none: [] }
            anchored: &a { v: 1 }
            aliased: *a
            """
        let original = try #require(try YAMLParser().document(from: yaml, file: "in.yaml"))
        let text = try JSONNodeWriter().text(for: original)
        let back = try #require(try YAMLParser().documents(fromJSON: Array(text.utf8), file: "out.json").first)
        #expect(Self.meaning(back) == Self.meaning(original))
        #expect(back.entry(forKey: "hex")?.value.scalarText == "31")
        #expect(back.entry(forKey: "forcedFloat")?.value.resolvedScalar == .double(3))
        #expect(back.entry(forKey: "big")?.value.scalarText == "123456789012345678901234")
    }

    @Test("Short collections of scalars stay on one line; long ones and nested ones are spread, two spaces a level")
    func layout() throws {
        let node = YAMLNode.mapping([
            "short": .sequence([.string("FR"), .string("BE")]),
            "long": .sequence((0..<40).map { .int($0) }),
            "nested": .mapping(["inner": .mapping(["a": .int(1)])]),
        ])
        let text = try JSONNodeWriter().text(for: node)
        #expect(text.contains("\n  \"short\": [\"FR\", \"BE\"],\n"))
        #expect(text.contains("\n  \"long\": [\n    0,\n"))
        #expect(text.contains("\n  \"nested\": {\n    \"inner\": {\"a\": 1}\n  }\n}\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test("What JSON cannot hold is an error at its node: infinities, NaN, keys that are collections")
    func unsupportedValues() throws {
        for (yaml, column) in [("a: .inf", 4), ("a: -.inf", 4), ("a: .nan", 4), ("a: !!float .inf", 4)] {
            let node = try #require(try YAMLParser().document(from: yaml, file: "f.yaml"))
            let error = #expect(throws: YAMLError.self) { try JSONNodeWriter().text(for: node) }
            #expect(error?.kind == .unsupported)
            #expect(error?.location.description == "f.yaml:1:\(column)", "\(yaml)")
        }
        let complexKey = try #require(try YAMLParser().document(from: "? [a, b]\n: 1\n", file: "k.yaml"))
        let error = #expect(throws: YAMLError.self) { try JSONNodeWriter().text(for: complexKey) }
        #expect(error?.message.contains("a sequence has no JSON form") == true)
    }

    @Test("JSON's number grammar is recognised exactly")
    func numberGrammar() {
        for valid in ["0", "-0", "12", "1.5", "-1.5e10", "2E+3", "1e-7"] { #expect(JSONNodeWriter.isJSONNumber(valid)) }
        for invalid in ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1F", "1_000", "1.5.5", " 1"] {
            #expect(!JSONNodeWriter.isJSONNumber(invalid), "\(invalid)")
        }
    }
}
