import EnsignYAML
import Testing

@Suite("Writing YAML")
struct YAMLEmitterTests {
    @Test("An overlay round-trips through the emitter and the parser")
    func roundTrip() throws {
        let node = YAMLNode.mapping([
            "flags": .mapping([
                "beneficiaries.showPendingList": .bool(true),
                "beneficiaries.pageSize": .int(50),
                "pricing.rate": .double(0.25),
                "pricing.whole": .double(3),
                "copy.title": .string("Hello: world"),
                "copy.looksLikeBool": .string("true"),
                "copy.looksLikeNumber": .string("20"),
                "copy.yes": .string("yes"),
                "copy.empty": .string(""),
                "copy.multiline": .string("line one\nline two"),
                "copy.unicode": .string("café ✓"),
                "object.value": .mapping(["list": .sequence([.int(1), .string("two")]), "none": .null]),
                "object.emptyList": .sequence([]),
            ])
        ])
        let text = try YAMLEmitter().text(for: node)
        let parsed = try #require(try YAMLParser().document(from: text, file: "out.yaml"))
        let flags = try #require(parsed.entry(forKey: "flags")?.value)
        func value(_ key: String) -> ResolvedScalar? { flags.entry(forKey: key)?.value.resolvedScalar }
        #expect(value("beneficiaries.showPendingList") == .bool(true))
        #expect(value("beneficiaries.pageSize") == .int(50))
        #expect(value("pricing.rate") == .double(0.25))
        #expect(value("pricing.whole") == .double(3))
        #expect(value("copy.title") == .string("Hello: world"))
        #expect(value("copy.looksLikeBool") == .string("true"))
        #expect(value("copy.looksLikeNumber") == .string("20"))
        #expect(value("copy.yes") == .string("yes"))
        #expect(value("copy.empty") == .string(""))
        #expect(value("copy.multiline") == .string("line one\nline two"))
        #expect(value("copy.unicode") == .string("café ✓"))
        let object = try #require(flags.entry(forKey: "object.value")?.value)
        #expect(
            object.entry(forKey: "list")?.value.sequenceElements?.map(\.resolvedScalar) == [.int(1), .string("two")])
        #expect(object.entry(forKey: "none")?.value.resolvedScalar == .null)
        #expect(flags.entry(forKey: "object.emptyList")?.value.sequenceElements?.isEmpty == true)
        // Order is kept.
        #expect(flags.mappingEntries?.first?.key.scalarText == "beneficiaries.showPendingList")
    }

    @Test("Output is readable block YAML")
    func blockStyle() throws {
        let text = try YAMLEmitter().text(
            for: .mapping(["flags": .mapping(["a.b": .bool(true), "c.d": .int(2)])]))
        #expect(text == "flags:\n  a.b: true\n  c.d: 2\n")
    }

    @Test("Several documents are separated")
    func multipleDocuments() throws {
        let text = try YAMLEmitter().text(forDocuments: [.mapping(["a": .int(1)]), .mapping(["b": .int(2)])])
        #expect(try YAMLParser().documents(from: text, file: "m.yaml").count == 2)
    }
}
