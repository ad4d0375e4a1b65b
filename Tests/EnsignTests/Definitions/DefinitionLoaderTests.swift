import Testing

@testable import Ensign

@Suite("Loading definitions")
struct DefinitionLoaderTests {
    @Test("The compact form: type, default, constraints, environments and documentation fields")
    func compactForm() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": """
            version: 1
            namespace: beneficiaries
            flags:
              showPendingList:
                type: bool
                default: false
                description: Show pending beneficiaries.
                owner: payments
                expires: 2027-06-30
                environments: { development: true }
              pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
              sortOrder: { type: string, enum: [name, recent], default: recent }
              rate: { default: 0.5 }
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        let set = loaded.definitions
        #expect(
            set.keys == [
                "beneficiaries.pageSize", "beneficiaries.rate", "beneficiaries.showPendingList",
                "beneficiaries.sortOrder",
            ])
        let pending = try #require(set["beneficiaries.showPendingList"])
        #expect(pending.type == .bool)
        #expect(pending.defaultValue?.value == false)
        #expect(pending.defaultValue?.location == SourcePosition(file: "flags/app.yaml", line: 6, column: 14))
        #expect(pending.environmentValues["development"]?.value == true)
        #expect(pending.summary == "Show pending beneficiaries.")
        #expect(pending.owner == "payments")
        #expect(pending.expires == CalendarDay("2027-06-30"))
        #expect(pending.location == SourcePosition(file: "flags/app.yaml", line: 4, column: 3))
        let pageSize = try #require(set["beneficiaries.pageSize"])
        #expect(pageSize.minimum == 5)
        #expect(pageSize.maximum == 100)
        #expect(set["beneficiaries.sortOrder"]?.allowedValues == ["name", "recent"])
        #expect(set["beneficiaries.rate"]?.type == .double)
    }

    @Test("A flagd JSON file with strings libyaml refuses loads: escaped emoji, U+0085, U+FFFE (issue 18)")
    func jsonStringsLibYAMLRefuses() throws {
        let loaded = loadDefinitions([
            "flags/launch.json": #"""
            {
              "flags": {
                "rocket": {
                  "state": "ENABLED",
                  "variants": { "\ud83d\ude80": "\ud83d\ude80 go", "raw": "a\u0085b\ufffe" },
                  "defaultVariant": "\ud83d\ude80"
                }
              }
            }
            """#
        ])
        #expect(loaded.diagnostics.filter(\.isError).isEmpty, "\(loaded.diagnostics)")
        let rocket = try #require(loaded.definitions["rocket"])
        #expect(rocket.defaultVariant == "🚀")
        #expect(rocket.variants["🚀"] == "🚀 go")
        #expect(rocket.variants["raw"] == "a\u{85}b\u{FFFE}")
    }

    @Test("A JSON file's errors name its line and column")
    func jsonErrorPosition() {
        let loaded = loadDefinitions(["flags/bad.json": "{\n  \"flags\": {\n    \"a\": { \"default\": tru }\n  }\n}\n"])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "flags/bad.json:3:23: error: unexpected 't'; expected a JSON value"
            ])
    }

    @Test("flagd's long form: state, variants, defaultVariant, targeting and metadata")
    func longForm() throws {
        let loaded = loadDefinitions([
            "flags/transfers.json": """
            {
              "metadata": { "team": "transfers", "version": 2 },
              "flags": {
                "newFlow": {
                  "state": "ENABLED",
                  "variants": { "on": true, "off": false },
                  "defaultVariant": "off",
                  "metadata": { "version": 3 },
                  "targeting": { "if": [{ "in": [{ "var": "country" }, ["FR"]] }, "on", null] }
                },
                "retired": { "state": "DISABLED", "variants": { "a": "x", "b": "y" }, "defaultVariant": null }
              },
              "$evaluators": { "isStaff": { "ends_with": [{ "var": "email" }, "@example.com"] } }
            }
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        let newFlow = try #require(loaded.definitions["newFlow"])
        #expect(newFlow.type == .bool)
        #expect(newFlow.variants == ["on": true, "off": false])
        #expect(newFlow.defaultVariant == "off")
        #expect(newFlow.defaultValue?.value == false)
        #expect(newFlow.isEnabled)
        #expect(newFlow.metadata == ["team": "transfers", "version": 3])
        #expect(newFlow.targeting?.value["if"] != nil)
        let retired = try #require(loaded.definitions["retired"])
        #expect(!retired.isEnabled)
        #expect(retired.defaultValue == nil)
        #expect(retired.type == .string)
        #expect(loaded.definitions.evaluators["isStaff"] != nil)
    }

    @Test("Preferences are declared under preferences: and marked as such")
    func preferences() throws {
        let loaded = loadDefinitions([
            "flags/preferences.yaml": "preferences:\n  appearance.darkMode: { type: bool, default: false }\n"
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions["appearance.darkMode"]?.kind == .preference)
    }

    @Test("Variants with ints and doubles make a double flag")
    func mixedNumbers() {
        let loaded = loadDefinitions([
            "f.yaml": "flags:\n  rate: { variants: { low: 1, high: 2.5 }, defaultVariant: low }\n"
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions["rate"]?.type == .double)
        #expect(loaded.definitions["rate"]?.defaultValue?.value == .double(1))
    }

    @Test("Anchors and merge keys share fields between definitions")
    func mergeKeysInDefinitions() {
        let loaded = loadDefinitions([
            "f.yaml": """
            flags:
              a: &paymentsBool { type: bool, default: false, owner: payments }
              b: { <<: *paymentsBool, default: true }
            """
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions["b"]?.owner == "payments")
        #expect(loaded.definitions["b"]?.defaultValue?.value == true)
    }

    @Test("Several documents in one file are read as separate definitions files")
    func multiDocument() {
        let loaded = loadDefinitions([
            "f.yaml": "namespace: a\nflags:\n  x: { default: 1 }\n---\nnamespace: b\nflags:\n  x: { default: 2 }\n"
        ])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a.x", "b.x"])
    }

    @Test("An overlay's values are checked and converted to the key's type")
    func overlayValues() throws {
        let definitions = loadDefinitions([
            "flags/app.yaml": "flags:\n  rate: { type: double, default: 0.5 }\n  on: { default: false }\n"
        ]).definitions
        let (overlay, found) = DefinitionLoader().readOverlay(
            ConfigSource(name: "o.yaml", text: "flags:\n  rate: 2\n  on: true\n"), definitions: definitions)
        #expect(found.isEmpty)
        #expect(overlay.flags["rate"]?.value == .double(2))
        #expect(overlay.flags["on"]?.value == true)
        #expect(overlay.flags["on"]?.location == SourcePosition(file: "o.yaml", line: 3, column: 7))
    }

    @Test("An empty overlay file sets nothing, with a warning (an error where a running app reloads it)")
    func emptyOverlay() {
        let (overlay, found) = DefinitionLoader().readOverlay(
            ConfigSource(name: "o.yaml", text: "# nothing here yet\n"), definitions: .empty)
        #expect(found.map(\.severity) == [.warning])
        #expect(found.first?.message.hasPrefix("the file is empty") == true)
        #expect(overlay.isEmpty)
        var reloading = DefinitionLoader()
        reloading.emptyOverlaySeverity = .error
        #expect(reloading.readOverlay(ConfigSource(name: "o.yaml", text: ""), definitions: .empty).1.containsErrors)
        #expect(
            DefinitionLoader().readOverlay(ConfigSource(name: "o.yaml", text: "{}\n"), definitions: .empty).1.isEmpty)
    }
}
