import EnsignTestSupport
import EnsignTooling
import Testing

@testable import Ensign

/// `ensign validate FILE` reads a file named alone from its events as definitions, and parses
/// it whole only when its first document is an overlay or a bundle: the kind must come out
/// as `ConfigFileKind` decides it on the tree.
@Suite("The kind of a file validated alone")
struct ValidatedFileKindTests {
    /// The report for `text` written to a file called `name` and validated alone.
    func validate(_ text: String, name: String = "f.yaml") throws -> ValidationReport {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, text)
        return ConfigValidator().validate(paths: [path])
    }

    @Test("Each shape is read as the kind ConfigFileKind gives its first document")
    func kinds() throws {
        for (text, isDefinitions) in [
            ("flags:\n  a.b: true\n", false),
            ("flags:\n  a: { default: 1 }\n", true),
            ("namespace: shop\nflags:\n  a: 1\n", true),
            ("flags:\n  'bad key!': { type: bool, default: true }\n", true),
            ("flags:\n  a: { description: only text }\n", false),
            ("[1, 2]\n", true),
            ("preferences:\n  p: { state: ENABLED }\n", true),
            ("flags:\n  a: 1\n---\nversion: 1\nflags:\n  b: { default: 2 }\n", false),
        ] {
            let report = try validate(text)
            let parsed = try #require(try DefinitionLoader().parse(ConfigSource(name: "f.yaml", text: text)).first)
            #expect((ConfigFileKind(detecting: parsed) == .definitions) == isDefinitions, "\(text)")
            #expect(report.definitionFiles.count == (isDefinitions ? 1 : 0), "\(text)")
            #expect(report.overlays.count == (isDefinitions ? 0 : 1), "\(text)")
        }
    }

    @Test("A bundle named alone is read as a bundle, though its first member is read as definitions first")
    func bundle() throws {
        let text = #"{"ensignBundle": 1, "definitions": {"a.yaml": [{"flags": {"a": {"default": true}}}]}}"#
        let report = try validate(text, name: "bundle.json")
        #expect(!report.diagnostics.containsErrors, "\(report.diagnostics)")
        #expect(report.definitions["a"]?.defaultValue?.value == true)
    }
}
