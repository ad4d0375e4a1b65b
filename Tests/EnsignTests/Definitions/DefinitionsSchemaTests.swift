import EnsignTooling
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

@Suite("The JSON Schema of the definitions format")
struct DefinitionsSchemaTests {
    let checker = MiniSchemaChecker(root: DefinitionsSchema.document)

    static let sampleFiles: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let flags = root.appendingPathComponent("flags")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: flags.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { flags.appendingPathComponent($0).path }
    }()

    @Test("The sample definitions files conform", arguments: sampleFiles)
    func sampleConforms(path: String) throws {
        let node = try #require(try YAMLParser().documents(contentsOf: path).first)
        #expect(checker.problems(in: JSONValue(node)) == [])
    }

    @Test("Misspelt fields, bad types and bad keys are caught")
    func violations() {
        let document: JSONValue = [
            "flags": [
                "ok": ["type": "bool", "default": true],
                "typo": ["defualt": 1],
                "badType": ["type": "boolean", "default": true],
                "bad key": ["default": 1],
            ],
            "prefs": [:],
        ]
        let problems = checker.problems(in: document)
        #expect(problems.contains("/flags/typo: unexpected property 'defualt'"))
        #expect(problems.contains("/flags/badType/type: \"boolean\" is not in the enum"))
        #expect(problems.contains("/flags: property name 'bad key' does not match the pattern"))
        #expect(problems.contains("/: unexpected property 'prefs'"))
        #expect(!problems.contains { $0.hasPrefix("/flags/ok") })
    }

    @Test("Preferences may not use flag-only fields")
    func preferenceFields() {
        let problems = checker.problems(in: ["preferences": ["dark": ["default": false, "targeting": ["var": "x"]]]])
        #expect(problems == ["/preferences/dark: unexpected property 'targeting'"])
    }

    @Test("swiftType is in the schema for flags and preferences, with the loader's pattern")
    func swiftType() throws {
        let document: JSONValue = [
            "flags": ["banner": ["type": "object", "default": [:], "swiftType": "Wallet.Banner"]],
            "preferences": ["theme": ["type": "object", "default": [:], "swiftType": "Theme"]],
        ]
        #expect(checker.problems(in: document) == [])
        for definition in ["flag", "preference"] {
            let field = DefinitionsSchema.document["$defs"]?[definition]?["properties"]?["swiftType"]
            #expect(field?["pattern"]?.stringValue == SwiftTypeName.pattern)
        }
        let pattern = try Regex(SwiftTypeName.pattern)
        for sample in ["Banner", "Wallet.Banner", "_Private", "A1.b_2", "2x", "Wallet.", "[String: Int]", "a b", ""] {
            let matches = (try? pattern.wholeMatch(in: sample)) != nil
            #expect(matches == SwiftTypeName.isValid(sample), "\(sample)")
        }
    }
}

/// A checker for the subset of JSON Schema the definitions schema uses: type, enum, const,
/// properties, additionalProperties, propertyNames/pattern, required, anyOf, $ref, minItems,
/// minProperties.
struct MiniSchemaChecker {
    let root: JSONValue

    func problems(in value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: root, at: "", into: &found)
        return found
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/$defs/") else { return schema }
        return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))] ?? [:]
    }

    private func check(_ value: JSONValue, against rawSchema: JSONValue, at path: String, into found: inout [String]) {
        let schema = resolve(rawSchema)
        let here = path.isEmpty ? "/" : path
        if let types = schema["type"] {
            let allowed = types.arrayValue?.compactMap(\.stringValue) ?? [types.stringValue ?? ""]
            guard allowed.contains(where: { Self.matches(value, type: $0) }) else {
                found.append("\(here): \(value.jsonText) is not of type \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            found.append("\(here): \(value.jsonText) is not in the enum")
        }
        if let constant = schema["const"], constant != value {
            found.append("\(here): \(value.jsonText) is not \(constant.jsonText)")
        }
        if let anyOf = schema["anyOf"]?.arrayValue {
            let passes = anyOf.contains { option in
                var scratch: [String] = []
                check(value, against: option, at: path, into: &scratch)
                return scratch.isEmpty
            }
            if !passes { found.append("\(here): matches none of anyOf") }
        }
        if let elements = value.arrayValue, let minimum = schema["minItems"]?.intValue, elements.count < minimum {
            found.append("\(here): fewer than \(minimum) items")
        }
        guard let members = value.objectValue else { return }
        if let minimum = schema["minProperties"]?.intValue, members.count < minimum {
            found.append("\(here): fewer than \(minimum) properties")
        }
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
            found.append("\(here): missing required property '\(name)'")
        }
        let properties = schema["properties"]?.objectValue ?? [:]
        for name in members.keys.sorted() {
            let childPath = "\(path)/\(name)"
            if let pattern = resolve(schema["propertyNames"] ?? [:])["pattern"]?.stringValue,
                (try? Regex(pattern).wholeMatch(in: name)) == nil
            {
                found.append("\(here): property name '\(name)' does not match the pattern")
            }
            if let propertySchema = properties[name] {
                check(members[name]!, against: propertySchema, at: childPath, into: &found)
            } else if let additional = schema["additionalProperties"] {
                if additional == false {
                    found.append("\(here): unexpected property '\(name)'")
                } else if additional.objectValue != nil {
                    check(members[name]!, against: additional, at: childPath, into: &found)
                }
            }
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("integer", .int), ("number", .int), ("number", .double):
            return true
        default:
            return false
        }
    }
}
