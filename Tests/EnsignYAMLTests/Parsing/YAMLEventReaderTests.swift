import Testing

@testable import EnsignYAML

@Suite("Walking a stream's events")
struct YAMLEventReaderTests {
    /// The keys and composed values of every top-level mapping, walked with `nextKey(in:)`.
    func walk(_ text: String, isJSON: Bool = false) throws -> [[(key: String, value: YAMLNode)]] {
        try YAMLParser().readEvents(from: Array(text.utf8), file: "w.yaml", isJSON: isJSON) {
            reader throws(YAMLError) in
            var documents: [[(key: String, value: YAMLNode)]] = []
            while try reader.nextDocument() {
                var entries: [(key: String, value: YAMLNode)] = []
                var mapping = try reader.enterMapping()
                while let key = try reader.nextKey(in: &mapping) {
                    entries.append((key.scalarText ?? "?", try reader.composeNode()))
                }
                documents.append(entries)
            }
            return documents
        }
    }

    /// A node's content and every position in it, as text.
    func shape(_ node: YAMLNode) -> String {
        let at = "@\(node.location.line):\(node.location.column)"
        switch node.content {
        case .scalar(let text, _): return text + at
        case .sequence(let elements): return "[" + elements.map(shape).joined(separator: ",") + "]" + at
        case .mapping(let entries):
            return "{" + entries.map { shape($0.key) + ":" + shape($0.value) }.joined(separator: ",") + "}" + at
        }
    }

    @Test("A walked mapping has the entries, values and positions of the composed one")
    func walkMatchesComposition() throws {
        let text = """
            base: &b { x: 1, y: 2 }
            &k plain: 3
            merged:
              <<: *b
              y: 20
            <<: { extra: 4, plain: 99 }
            last: *b
            ---
            only: [1, 2]
            """
        let walked = try walk(text)
        let composed = try YAMLParser().documents(from: text, file: "w.yaml")
        #expect(walked.count == composed.count)
        for (documentEntries, document) in zip(walked, composed) {
            let entries = try #require(document.mappingEntries)
            #expect(documentEntries.map(\.key) == entries.map { $0.key.scalarText ?? "?" })
            for (walkedEntry, entry) in zip(documentEntries, entries) {
                #expect(shape(walkedEntry.value) == shape(entry.value))
            }
        }
        #expect(walked[0].map(\.key) == ["base", "plain", "merged", "extra", "last"])
    }

    @Test("Duplicate keys in a walked mapping are the composer's errors, before and after a fallback")
    func duplicates() {
        for (text, message) in [
            ("a: 1\nb: 2\na: 3\n", "w.yaml:3:1: error: duplicate key 'a' (first defined at line 1, column 1)"),
            ("a: 1\n*x : 2\n", "w.yaml:2:1: error: alias '*x' refers to an anchor that is not defined"),
            ("a: 1\n&k b: 2\na: 3\n", "w.yaml:3:1: error: duplicate key 'a' (first defined at line 1, column 1)"),
            ("<<: {a: 1}\n<<: {b: 2}\n", "w.yaml:2:1: error: duplicate merge key '<<' in this mapping"),
        ] {
            var found: YAMLError?
            do { _ = try walk(text) } catch { found = error as? YAMLError }
            #expect(found?.description == message, "\(text)")
        }
    }

    @Test("JSON documents are replayed as the same events")
    func jsonReplayed() throws {
        let walked = try walk(#"{"a": {"b": [1, 2]}, "c": "d"}"#, isJSON: true)
        #expect(walked.first?.map(\.key) == ["a", "c"])
        #expect(walked.first?.first?.value.location == SourcePosition(file: "w.yaml", line: 1, column: 7))
    }
}
