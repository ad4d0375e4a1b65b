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

    /// Every top-level key and value, or the error, walked with `nextKey(in:)` or, when
    /// `known` is given, with `nextKey(in:known:)`: as text, positions included.
    func walkedText(_ text: String, known: YAMLKnownKeys?) -> String {
        do {
            return try YAMLParser().readEvents(from: Array(text.utf8), file: "w.yaml") { reader throws(YAMLError) in
                var lines: [String] = []
                while try reader.nextDocument() {
                    var mapping = try reader.enterMapping()
                    while true {
                        let key: String
                        if let known {
                            guard let read = try reader.nextKey(in: &mapping, known: known) else { break }
                            switch read {
                            case .known(let index, let position):
                                key = known.names[index] + "@\(position.line):\(position.column)"
                            case .other(let node):
                                key = shape(node)
                            }
                        } else {
                            guard let node = try reader.nextKey(in: &mapping) else { break }
                            key = shape(node)
                        }
                        lines.append(key + " = " + shape(try reader.composeNode()))
                    }
                }
                return lines.joined(separator: "\n")
            }
        } catch {
            return "error: \(error)"
        }
    }

    @Test("Keys matched by name read as the same mapping as keys read as nodes, duplicates and merges included")
    func knownKeysMatchNodes() {
        let known = YAMLKnownKeys(["type", "default", "description"])
        let entries = [
            "type: 1", "default: 2", "description: d", "'type': 3", "!!str default: 4", "&a type: 5", "zeta: 6",
            "default2: 7", "typ: 8", "<<: { type: 9, zeta: 10 }", "\"description\": 11", "? type\n: 12",
        ]
        var generator = SystemRandomNumberGenerator()
        var outcomes: Set<String> = []
        for _ in 0..<1_500 {
            let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                entries.randomElement(using: &generator)!
            }.joined(separator: "\n")
            let expected = walkedText(text, known: nil)
            #expect(walkedText(text, known: known) == expected, "\(text)")
            outcomes.insert(expected.hasPrefix("error: ") ? "error" : "read")
        }
        #expect(outcomes == ["error", "read"], "both duplicates and clean mappings were tried")
    }

    @Test("A known key written twice is refused with the first one's position")
    func knownKeyTwice() {
        let known = YAMLKnownKeys(["type"])
        #expect(
            walkedText("x: 0\ntype: 1\ntype: 2\n", known: known)
                == "error: w.yaml:3:1: error: duplicate key 'type' (first defined at line 2, column 1)")
        #expect(
            walkedText("type: 1\n!!str type: 2\n", known: known)
                == "error: w.yaml:2:1: error: duplicate key 'type' (first defined at line 1, column 1)")
    }

    @Test("JSON documents are replayed as the same events")
    func jsonReplayed() throws {
        let walked = try walk(#"{"a": {"b": [1, 2]}, "c": "d"}"#, isJSON: true)
        #expect(walked.first?.map(\.key) == ["a", "c"])
        #expect(walked.first?.first?.value.location == SourcePosition(file: "w.yaml", line: 1, column: 7))
    }
}
