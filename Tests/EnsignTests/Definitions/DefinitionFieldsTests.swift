import EnsignYAML
import Testing

@testable import Ensign

/// A definition entry's fields are indexed once by name; the index finds exactly the fields
/// a scan of the entry's keys found.
@Suite("Definition fields")
struct DefinitionFieldsTests {
    @Test("Every field is found by its name, and only by it")
    func names() {
        for field in DefinitionField.allCases {
            #expect(DefinitionField(named: field.name) == field)
            #expect(DefinitionField(named: field.name + "s") == nil)
            #expect(DefinitionField(named: String(field.name.dropLast())) == nil)
            #expect(DefinitionField(named: field.name.uppercased()) == nil)
        }
        for name in ["", "typo", "minimax", "maximal", "defaults", "descriptions", "enums", "Type"] {
            #expect(DefinitionField(named: name) == nil, "\(name)")
        }
    }

    @Test("The field lists in suggestions are the fields, common ones first")
    func lists() {
        #expect(DefinitionEntryReader.commonFields.first == "type")
        #expect(DefinitionEntryReader.flagOnlyFields == ["variants", "defaultVariant", "state", "targeting"])
        #expect(
            DefinitionEntryReader.commonFields.count + DefinitionEntryReader.flagOnlyFields.count
                == DefinitionField.allCases.count)
    }

    @Test("A field after hundreds of unknown keys is still read, and each unknown key reported")
    func farField() {
        var text = "version: 1\nflags:\n  wide:\n"
        for index in 0..<300 { text += "    extra\(index): 1\n" }
        text += "    type: int\n    default: 7\n    maximum: 9\n"
        let loaded = loadDefinitions(["flags/app.yaml": text])
        let definition = loaded.definitions["wide"]
        #expect(definition?.type == .int)
        #expect(definition?.defaultValue?.value == .int(7))
        #expect(definition?.maximum == 9)
        let unknown = loaded.diagnostics.filter { $0.message.contains("unknown field 'extra") }
        #expect(unknown.count == 300)
        #expect(unknown.first?.location.line == 4)
    }

    @Test("A preference with a flag-only field is told so, at the field")
    func preferenceWithFlagField() {
        let found = diagnostics("version: 1\npreferences:\n  theme: { default: dark, state: ENABLED }\n")
        #expect(
            found.contains {
                $0.contains("app.yaml:3:27") && $0.contains("unknown field 'state' in 'theme'")
                    && $0.contains("preferences cannot have 'state'")
            }, "\(found)")
    }
}
