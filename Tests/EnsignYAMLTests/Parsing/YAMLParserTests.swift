import EnsignYAML
import Testing

@Suite("Parsing documents into located nodes")
struct YAMLParserTests {
    let parser = YAMLParser()

    @Test("Every node carries its 1-based line and column")
    func locations() throws {
        let text = """
            version: 1
            flags:
              pageSize: { type: int, default: 20 }
            """
        let root = try #require(try parser.document(from: text, file: "flags/app.yaml"))
        #expect(root.location == SourcePosition(file: "flags/app.yaml", line: 1, column: 1))
        let flags = try #require(root.entry(forKey: "flags"))
        #expect(flags.key.location.line == 2)
        let pageSize = try #require(flags.value.entry(forKey: "pageSize"))
        #expect(pageSize.key.location == SourcePosition(file: "flags/app.yaml", line: 3, column: 3))
        let defaultEntry = try #require(pageSize.value.entry(forKey: "default"))
        #expect(defaultEntry.value.location == SourcePosition(file: "flags/app.yaml", line: 3, column: 35))
        #expect(defaultEntry.value.resolvedScalar == .int(20))
    }

    @Test("Mappings keep file order")
    func mappingOrder() throws {
        let root = try #require(try parser.document(from: "zeta: 1\nalpha: 2\nmid: 3\n", file: "m.yaml"))
        #expect(root.mappingEntries?.map { $0.key.scalarText } == ["zeta", "alpha", "mid"])
    }

    @Test("A stream holds several documents, and an empty stream none")
    func multipleDocuments() throws {
        let documents = try parser.documents(from: "a: 1\n---\nb: 2\n---\n- x\n", file: "multi.yaml")
        #expect(documents.count == 3)
        #expect(documents[1].entry(forKey: "b")?.value.location.line == 3)
        #expect(documents[2].sequenceElements?.first?.scalarText == "x")
        #expect(try parser.documents(from: "", file: "empty.yaml").isEmpty)
        #expect(try parser.documents(from: "# only a comment\n", file: "comment.yaml").isEmpty)
    }

    @Test("A bare scalar and a bare sequence are documents too")
    func bareRoots() throws {
        let scalar = try #require(try parser.document(from: "hello", file: "s.yaml"))
        #expect(scalar.scalarText == "hello")
        let sequence = try #require(try parser.document(from: "- 1\n- 2\n", file: "q.yaml"))
        #expect(sequence.sequenceElements?.count == 2)
    }

    @Test("document(from:) rejects a stream with two documents")
    func singleDocumentRequired() {
        #expect(throws: YAMLError.self) { try parser.document(from: "a: 1\n---\nb: 2\n", file: "two.yaml") }
    }

    @Test("Anchors and aliases copy the anchored node")
    func aliases() throws {
        let text = """
            base: &base { type: bool, default: false }
            copy: *base
            list: [&x 1, *x]
            """
        let root = try #require(try parser.document(from: text, file: "a.yaml"))
        let copy = try #require(root.entry(forKey: "copy")?.value)
        #expect(copy.entry(forKey: "default")?.value.resolvedScalar == .bool(false))
        #expect(root.entry(forKey: "list")?.value.sequenceElements?.map(\.resolvedScalar) == [.int(1), .int(1)])
    }

    @Test("Merge keys bring in entries; explicit keys win, earlier sources win")
    func mergeKeys() throws {
        let text = """
            defaults: &defaults { type: int, default: 1, owner: core }
            other: &other { default: 9, minimum: 0 }
            pageSize:
              <<: [*defaults, *other]
              default: 20
            """
        let root = try #require(try parser.document(from: text, file: "m.yaml"))
        let pageSize = try #require(root.entry(forKey: "pageSize")?.value)
        let keys = pageSize.mappingEntries?.compactMap { $0.key.scalarText }
        #expect(keys == ["type", "owner", "minimum", "default"])
        #expect(pageSize.entry(forKey: "default")?.value.resolvedScalar == .int(20))
    }

    @Test("A merge key needs a mapping")
    func mergeOfScalarFails() {
        let error = #expect(throws: YAMLError.self) {
            try parser.document(from: "a:\n  <<: 3\n", file: "m.yaml")
        }
        #expect(error?.location.line == 2)
        #expect(error?.message.contains("merge key") == true)
    }

    @Test("Duplicate keys are an error naming both positions")
    func duplicateKeys() {
        let error = #expect(throws: YAMLError.self) {
            try parser.document(from: "flags:\n  a: 1\n  b: 2\n  a: 3\n", file: "d.yaml")
        }
        #expect(error?.kind == .duplicateKey)
        #expect(error?.description == "d.yaml:4:3: error: duplicate key 'a' (first defined at line 2, column 3)")
    }

    @Test("Duplicate keys are caught in large mappings too")
    func duplicateKeysInLargeMapping() {
        var text = ""
        for index in 0..<50 { text += "key\(index): \(index)\n" }
        text += "key17: again\n"
        let error = parser.expectedError(reading: text, file: "big.yaml")
        #expect(error?.location.line == 51)
        #expect(error?.message.contains("first defined at line 18") == true)
    }

    @Test("An alias to an unknown anchor is an error")
    func unknownAnchor() {
        let error = parser.expectedError(reading: "a: *nope\n", file: "u.yaml")
        #expect(error?.location.line == 1)
    }

    @Test("Explicit tags are kept on the node")
    func tagsKept() throws {
        let root = try #require(try parser.document(from: "a: !!str 1\nb: !custom x\n", file: "t.yaml"))
        #expect(root.entry(forKey: "a")?.value.tag == "tag:yaml.org,2002:str")
        #expect(root.entry(forKey: "b")?.value.tag == "!custom")
    }

    @Test("JSON is YAML")
    func jsonInput() throws {
        let root = try #require(
            try parser.document(
                from: #"{"flags": {"f": {"variants": {"on": true}, "defaultVariant": "on"}}}"#,
                file: "f.json"))
        let variants = root.entry(forKey: "flags")?.value.entry(forKey: "f")?.value.entry(forKey: "variants")
        #expect(variants?.value.entry(forKey: "on")?.value.resolvedScalar == .bool(true))
    }

    @Test("Reading a file that does not exist names the file")
    func missingFile() {
        let error = #expect(throws: YAMLError.self) {
            try parser.documents(contentsOf: "/nonexistent/ensign/file.yaml")
        }
        #expect(error?.kind == .unreadable)
        #expect(error?.description.hasPrefix("/nonexistent/ensign/file.yaml: error: cannot open file") == true)
    }
}
