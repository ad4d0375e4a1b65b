import EnsignTooling
import Testing

@testable import Ensign

/// One test per validation rule, each with a file that triggers it and the exact diagnostic.
@Suite("Validation rules")
struct ValidationRuleTests {
    @Test("Unknown type, with a suggestion")
    func unknownType() {
        #expect(
            diagnostics("flags:\n  a: { type: boolean, default: true }\n") == [
                "flags/app.yaml:2:14: error: 'a' has unknown type 'boolean'; use one of bool, int, double, string,"
                    + " object; did you mean 'bool'?"
            ])
    }

    @Test("A default that is not of the type")
    func defaultOfWrongType() {
        #expect(
            diagnostics("namespace: beneficiaries\nflags:\n  pageSize: { type: int, default: twenty }\n") == [
                "flags/app.yaml:3:35: error: 'beneficiaries.pageSize' default \"twenty\" is not an int"
            ])
    }

    @Test("A default outside enum, minimum or maximum")
    func defaultOutsideConstraints() {
        #expect(
            diagnostics(
                """
                flags:
                  sort: { type: string, enum: [name, recent], default: recnt }
                  small: { type: int, default: 1, minimum: 5 }
                  big: { type: int, default: 500, maximum: 100 }
                """) == [
                    "flags/app.yaml:2:56: error: 'sort' default \"recnt\" is not one of \"name\", \"recent\";"
                        + " did you mean 'recent'?",
                    "flags/app.yaml:3:32: error: 'small' default 1 is below the minimum of 5",
                    "flags/app.yaml:4:30: error: 'big' default 500 is above the maximum of 100",
                ])
    }

    @Test("An environment value outside the constraints")
    func environmentValueChecked() {
        #expect(
            diagnostics("flags:\n  size: { type: int, default: 10, maximum: 20, environments: { staging: 50 } }\n") == [
                "flags/app.yaml:2:73: error: 'size' value for environment 'staging' 50 is above the maximum of 20"
            ])
    }

    @Test("flagd defaultVariant that is not a variant")
    func defaultVariantNotAVariant() {
        #expect(
            diagnostics("flags:\n  f: { variants: { 'on': true, 'off': false }, defaultVariant: of }\n") == [
                "flags/app.yaml:2:64: error: 'f' defaultVariant 'of' is not among its variants (off, on);"
                    + " did you mean 'off'?"
            ])
    }

    @Test("Variants of mixed types are a warning naming the flag's type")
    func mixedVariants() {
        #expect(
            diagnostics("flags:\n  f: { variants: { a: true, b: hello }, defaultVariant: a }\n") == [
                "flags/app.yaml:2:18: warning: 'f' variants have mixed types: 'a' is a bool, 'b' is a string;"
                    + " it is a bool flag (from its default variant), and a read that chooses a variant of another"
                    + " type gets TYPE_MISMATCH; declare 'type:' to check every variant"
            ])
    }

    @Test("The same key in two files names both places")
    func duplicateAcrossFiles() {
        let loaded = loadDefinitions([
            "flags/a.yaml": "namespace: pay\nflags:\n  limit: { default: 1 }\n",
            "flags/b.yaml": "flags:\n  pay.limit: { default: 2 }\n",
        ])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "flags/b.yaml:2:3: error: 'pay.limit' is defined twice; each key is defined in exactly one place\n"
                    + "flags/a.yaml:3:3: note: 'pay.limit' first defined here"
            ])
    }

    @Test("A flag and a preference cannot share a key")
    func flagAndPreferenceShareKey() {
        let found = diagnostics("flags:\n  dark: { default: true }\npreferences:\n  dark: { default: false }\n")
        #expect(found.first?.hasPrefix("flags/app.yaml:4:3: error: 'dark' is defined twice") == true)
    }

    @Test("Overlay value for an undefined key, with a suggestion")
    func overlayUndefinedKey() {
        #expect(
            overlayDiagnostics("flags:\n  pagesize: 50\n", definitions: "flags:\n  pageSize: { default: 20 }\n") == [
                "deploy/prod.yaml:2:3: warning: no flag 'pagesize' is defined; the value is ignored;"
                    + " did you mean 'pageSize'?"
            ])
    }

    @Test("Overlay nested instead of dotted gets told to use full keys")
    func overlayNested() {
        #expect(
            overlayDiagnostics(
                "flags:\n  beneficiaries:\n    pageSize: 50\n",
                definitions: "namespace: beneficiaries\nflags:\n  pageSize: { default: 20 }\n") == [
                    "deploy/prod.yaml:2:3: warning: no flag 'beneficiaries' is defined; the value is ignored;"
                        + " overlays use full dotted keys: write 'beneficiaries.pageSize: …'"
                ])
    }

    @Test("Overlay value of the wrong type")
    func overlayWrongType() {
        #expect(
            overlayDiagnostics("flags:\n  pageSize: lots\n", definitions: "flags:\n  pageSize: { default: 20 }\n") == [
                "deploy/prod.yaml:2:13: error: 'pageSize' value \"lots\" is not an int"
            ])
    }

    @Test("Overlay puts a preference under flags:")
    func overlayWrongSection() {
        #expect(
            overlayDiagnostics(
                "flags:\n  dark: true\n", definitions: "preferences:\n  dark: { default: false }\n") == [
                    "deploy/prod.yaml:2:3: error: 'dark' is a preference, so it belongs under 'preferences:',"
                        + " not 'flags:'"
                ])
    }

    @Test("Unknown fields, with a suggestion")
    func unknownField() {
        #expect(
            diagnostics("flags:\n  a: { type: int, defualt: 3, default: 1 }\nflgs: {}\n") == [
                "flags/app.yaml:2:19: error: unknown field 'defualt' in 'a'; did you mean 'default'?",
                "flags/app.yaml:3:1: error: unknown top-level field 'flgs'; did you mean 'flags'?",
            ])
    }

    @Test("swiftType: names a Swift type, on flags and preferences")
    func swiftType() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": """
            flags:
              banner: { type: object, swiftType: Wallet.Banner, default: {} }
            preferences:
              theme: { type: object, swiftType: Theme, default: {} }
            """
        ])
        #expect(loaded.diagnostics == [])
        #expect(loaded.definitions["banner"]?.swiftType == "Wallet.Banner")
        #expect(loaded.definitions["theme"]?.swiftType == "Theme")
        #expect(loaded.definitions["theme"]?.kind == .preference)
    }

    @Test("A swiftType: that is not a Swift type name is an error")
    func invalidSwiftType() {
        #expect(
            diagnostics("flags:\n  a: { type: object, default: {}, swiftType: \"[String: Int]\" }\n") == [
                "flags/app.yaml:2:46: error: 'a' swiftType must be a Swift type name such as Banner or Wallet.Banner;"
                    + " found '[String: Int]'"
            ])
        #expect(diagnostics("flags:\n  a: { default: 1, swiftType: 2x }\n").count == 1)
        #expect(diagnostics("flags:\n  a: { default: 1, swiftType: Wallet. }\n").count == 1)
    }

    @Test("Preferences cannot have targeting")
    func preferenceWithFlagOnlyField() {
        #expect(
            diagnostics("preferences:\n  dark: { default: false, targeting: { var: x } }\n") == [
                "flags/app.yaml:2:27: error: unknown field 'targeting' in 'dark'; preferences cannot have"
                    + " 'targeting' (it is for flags)"
            ])
    }

    @Test("yes, no, on and off where a bool is expected are read as bools with a warning")
    func yamlOneOneBooleans() throws {
        let loaded = loadDefinitions([
            "flags/app.yaml": "flags:\n  a: { type: bool, default: yes, environments: { staging: off } }\n"
        ])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "flags/app.yaml:2:29: warning: 'a' default yes is a string in YAML 1.2; Ensign reads it as true"
                    + " here, but write true to be unambiguous",
                "flags/app.yaml:2:59: warning: 'a' value for environment 'staging' off is a string in YAML 1.2;"
                    + " Ensign reads it as false here, but write false to be unambiguous",
            ])
        #expect(loaded.definitions["a"]?.defaultValue?.value == true)
        #expect(loaded.definitions["a"]?.environmentValues["staging"]?.value == false)
    }

    @Test("A yes default without a type makes a string flag, with a warning")
    func yesWithoutType() {
        #expect(
            diagnostics("flags:\n  a: { default: on }\n") == [
                "flags/app.yaml:2:17: warning: 'a' default on is a string in YAML 1.2, so this is a string flag;"
                    + " if you meant a bool, write true"
            ])
    }

    @Test("expires in the past is a warning naming the owner")
    func expired() {
        #expect(
            diagnostics("flags:\n  old: { default: true, owner: payments, expires: 2026-01-31 }\n") == [
                "flags/app.yaml:2:51: warning: 'old' expired on 2026-01-31 (owner: payments); remove the flag from"
                    + " code and files, or move 'expires' later"
            ])
    }

    @Test("expires that is not a day is an error")
    func expiresNotADay() {
        #expect(
            diagnostics("flags:\n  old: { default: true, expires: 2026-02-30 }\n") == [
                "flags/app.yaml:2:34: error: 'old' expires must be a day written YYYY-MM-DD, such as 2027-06-30"
            ])
    }

    @Test("Bad namespace syntax; a key is any non-empty text, as in flagd (issue 18, item 9)")
    func badKeySyntax() {
        let rule = "use dot-separated segments of letters, digits, '_' and '-', each starting with a letter or digit"
        #expect(
            diagnostics(
                "namespace: bad..space\nflags:\n  has space: { default: 1 }\n  -lead: { default: 1 }\n"
                    + "  \"\": { default: 1 }\n  \"tab\\there\": { default: 1 }\n") == [
                    "flags/app.yaml:1:12: error: invalid namespace \"bad..space\": \(rule)",
                    "flags/app.yaml:5:3: error: invalid key \"\": a key cannot be empty",
                ])
    }

    @Test("flagd keys load unchanged: spaces, ':', '/', '@', non-ASCII letters")
    func flagdKeys() {
        let keys = ["my flag", "team:checkout", "path/to/flag", "user@eu", "caf\u{E9}.mode", "-lead", "🚀", "tab\there"]
        let loaded = loadDefinitions([
            "flags/app.json": "{\"flags\": {"
                + keys.map { "\(JSONValue.string($0).jsonText): {\"default\": true}" }.joined(separator: ", ") + "}}"
        ])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(Set(loaded.definitions.keys) == Set(keys))
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        for key in keys { #expect(evaluator.details(forKeyNamed: key).value == true, "\(key)") }
    }

    @Test("A definition that is not a mapping suggests the compact form")
    func scalarDefinition() {
        #expect(
            diagnostics("flags:\n  dark: false\n") == [
                "flags/app.yaml:2:9: error: 'dark' must be a mapping of fields such as type and default; found a bool;"
                    + " write 'dark: { default: false }'"
            ])
    }

    @Test("A compact flag needs a default")
    func missingDefault() {
        #expect(
            diagnostics("flags:\n  size: { type: int }\n") == [
                "flags/app.yaml:2:3: error: 'size' needs a default (and optionally a type); add 'default: <value>'"
            ])
    }

    @Test("Unsupported version and unknown state")
    func versionAndState() {
        #expect(
            diagnostics("version: 2\nflags:\n  f: { state: ENABLD, variants: { a: 1 }, defaultVariant: a }\n") == [
                "flags/app.yaml:1:10: error: unsupported version 2; this Ensign reads version 1",
                "flags/app.yaml:3:15: error: 'f' state must be ENABLED or DISABLED; found 'ENABLD'; did you mean"
                    + " 'ENABLED'?",
            ])
    }

    @Test("minimum on a string flag, and maximum below minimum")
    func boundsMisuse() {
        #expect(
            diagnostics("flags:\n  s: { default: x, minimum: 1 }\n  n: { default: 5, minimum: 10, maximum: 1 }\n") == [
                "flags/app.yaml:2:29: error: 's' is a string flag; 'minimum' applies to int and double",
                "flags/app.yaml:3:17: error: 'n' default 5 is below the minimum of 10",
                "flags/app.yaml:3:42: error: 'n' maximum is below its minimum",
            ])
    }

    @Test("A misspelt inline environment name is a warning")
    func unknownEnvironmentName() {
        let loaded = loadDefinitions([
            "flags/app.yaml": "flags:\n  a: { default: false, environments: { developmnt: true } }\n"
        ])
        let found = EnvironmentNameCheck.check(loaded.definitions, knownEnvironments: [])
        #expect(
            found.map(\.description) == [
                "flags/app.yaml:2:52: warning: 'a' has a value for environment 'developmnt', which has no file in"
                    + " environments/ and is not a conventional name; did you mean 'development'?"
            ])
    }

    @Test("A file that is not a mapping, and an empty file")
    func wrongRoot() {
        #expect(
            diagnostics("- a\n- b\n") == [
                "flags/app.yaml:1:1: error: a definitions file must be a mapping with 'flags:' and/or"
                    + " 'preferences:'; found a sequence"
            ])
        #expect(
            diagnostics("just text") == [
                "flags/app.yaml:1:1: error: a definitions file must be a mapping with 'flags:' and/or"
                    + " 'preferences:'; found a string"
            ])
        #expect(
            diagnostics("") == [
                "flags/app.yaml:1:1: error: the file is empty; a definitions file needs 'flags:' or 'preferences:'"
            ])
    }

    @Test("Every problem is reported, not just the first")
    func allProblems() {
        let found = diagnostics(
            "flags:\n  a: { type: int, default: x }\n  b: { type: int, default: y }\n  c: { type: nope, default: 1 }\n")
        #expect(found.count == 3)
    }
}
