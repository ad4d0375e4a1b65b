import EnsignYAML
import Testing

@testable import Ensign

/// Definitions files are read from libyaml's events, walking the top-level and `flags:`
/// mappings: these are the shapes that walk must fall back on composing for.
@Suite("Reading definitions from events")
struct DefinitionEventReadingTests {
    @Test("A namespaced key is the namespace, a dot and the key, byte for byte")
    func namespacedKeys() {
        for (namespace, key) in [("a", "b"), ("catalog", "area12.flag1234"), ("caf\u{E9}", "cafe\u{301}.x")] {
            let full = DefinitionEntryReader.fullKey(namespace: namespace, shortKey: key)
            #expect(Array(full.utf8) == Array(namespace.utf8) + [UInt8(ascii: ".")] + Array(key.utf8))
        }
    }

    @Test("A namespace and metadata written after the flags still apply to them")
    func headerAfterFlags() throws {
        let loaded = loadDefinitions([
            "f.yaml": """
            flags:
              a: { default: 1 }
              b: { default: x, metadata: { team: own } }
            namespace: shop
            metadata: { team: catalog, tier: 2 }
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["shop.a", "shop.b"])
        #expect(loaded.definitions["shop.a"]?.metadata == ["team": "catalog", "tier": 2])
        #expect(loaded.definitions["shop.b"]?.metadata == ["team": "own", "tier": 2])
    }

    @Test("A namespace after the flags names them in their diagnostics, reported once")
    func headerAfterFlagsDiagnostics() {
        #expect(
            diagnostics("flags:\n  a: { default: 1, colour: red }\nnamespace: shop\n") == [
                "flags/app.yaml:2:20: error: unknown field 'colour' in 'shop.a'"
            ])
    }

    @Test("A flag that is an alias of another reads as a copy of it")
    func aliasedFlag() throws {
        let loaded = loadDefinitions([
            "f.yaml": "flags:\n  a: &base { type: bool, default: true, owner: pay }\n  b: *base\n"
        ])
        #expect(loaded.diagnostics.isEmpty)
        let b = try #require(loaded.definitions["b"])
        #expect(b.owner == "pay")
        #expect(b.defaultValue?.value == true)
        #expect(b.location == SourcePosition(file: "f.yaml", line: 3, column: 3))
    }

    @Test("A flags mapping and a flag's fields given as aliases are read as the anchored mappings")
    func aliasedMappings() throws {
        let loaded = loadDefinitions([
            "f.yaml": "$schema: [&all { a: &fields { default: 1 } }]\nflags: *all\npreferences: { p: *fields }\n"
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a", "p"])
        #expect(loaded.definitions["p"]?.defaultValue?.value == 1)
    }

    @Test("A merge key among the flags adds the merged flags; the flags written out win")
    func mergeAmongFlags() throws {
        let loaded = loadDefinitions([
            "f.yaml": """
            $schema: &more { b: { default: 2 }, a: { default: 9 } }
            flags:
              a: { default: 1 }
              <<: *more
              c: { default: 3 }
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a", "b", "c"])
        #expect(loaded.definitions["a"]?.defaultValue?.value == 1)
        #expect(loaded.definitions["b"]?.defaultValue?.value == 2)
    }

    @Test("A key written again after a merge key is a duplicate of the one before it")
    func duplicateAfterMerge() {
        #expect(
            diagnostics("flags:\n  a: { default: 1 }\n  <<: { b: { default: 2 } }\n  a: { default: 3 }\n") == [
                "flags/app.yaml:4:3: error: duplicate key 'a' (first defined at line 2, column 3)"
            ])
    }

    @Test("A duplicate among many flags is found, at both places")
    func duplicateAmongMany() {
        let flags = (0..<12).map { "  f\($0): { default: \($0) }\n" }.joined()
        #expect(
            diagnostics("flags:\n\(flags)  f3: { default: 0 }\n") == [
                "flags/app.yaml:14:3: error: duplicate key 'f3' (first defined at line 5, column 3)"
            ])
    }

    @Test("Anchored top-level keys and an anchored flags mapping are read as written")
    func anchoredKeysAndMappings() throws {
        let loaded = loadDefinitions(["f.yaml": "&v version: 1\n&k flags: &f\n  a: { default: 1 }\n"])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a"])
    }

    @Test("A syntax error after definitions fails the whole file, as if nothing were read")
    func syntaxErrorAfterDefinitions() {
        let loaded = loadDefinitions(["f.yaml": "flags:\n  a: { default: 1 }\n  b: [\n"])
        #expect(loaded.definitions.keys.isEmpty)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.location.line == 4)
    }

    @Test("The depth limit counts the walked mappings as it counts composed ones")
    func depthLimit() throws {
        var limits = YAMLLimits()
        limits.maximumDepth = 2
        let text = "flags:\n  a: { default: 1 }\n"
        let loaded = DefinitionLoader(limits: limits).loadDefinitions(from: [ConfigSource(name: "f.yaml", text: text)])
        #expect(throws: YAMLError.self) { try YAMLParser(limits: limits).documents(from: text, file: "f.yaml") }
        var parseError: YAMLError?
        do { _ = try YAMLParser(limits: limits).documents(from: text, file: "f.yaml") } catch { parseError = error }
        #expect(loaded.diagnostics.map(\.description) == [try #require(parseError).description])
        #expect(parseError?.location == SourcePosition(file: "f.yaml", line: 2, column: 6))
    }
}
