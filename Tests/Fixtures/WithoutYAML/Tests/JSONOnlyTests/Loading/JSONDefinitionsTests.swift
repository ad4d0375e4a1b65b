import Ensign
import Testing

/// Ensign built without the YAML trait: JSON definitions load (flagd's format and Ensign's
/// own), bundles load, and YAML is refused with an error that says what to ship instead.
@Suite("Without the YAML trait: loading")
struct JSONDefinitionsTests {
    static func context(_ path: String, _ environment: String) throws(AppContextLoadError) -> AppContext {
        var configuration = AppContextConfiguration(definitionsDirectory: path, environment: environment)
        configuration.watchesFiles = false
        return try AppContext(configuration: configuration)
    }

    @Test("The sample app's exported bundle resolves its values, environments and targeting")
    func sampleBundle() throws {
        let development = try Self.context(sampleBundlePath, "development")
        let production = try Self.context(sampleBundlePath, "production")
        #expect(development.details(forKeyNamed: "beneficiaries.showPendingList").value == true)
        #expect(production.details(forKeyNamed: "beneficiaries.showPendingList").value == false)
        // A request's evaluation context, as a server sets it: a child context per request.
        let staff = production.makeChild(
            label: "staff",
            evaluationContext: EvaluationContext(targetingKey: "a", attributes: ["email": "ana@bforbank.example"])
        ).details(forKeyNamed: "transfers.newFlow")
        #expect(staff.variant == "on")
        #expect(staff.reason == .targetingMatch)
        let german = production.makeChild(
            label: "german", evaluationContext: EvaluationContext(targetingKey: "b", attributes: ["country": "DE"])
        ).details(forKeyNamed: "transfers.newFlow")
        #expect(german.variant == "off")
        #expect(production.details(forKeyNamed: "appearance.darkMode").value == false)
        #expect(production.details(forKeyNamed: "beneficiaries.pageSize").source.location?.file == sampleBundlePath)
    }

    @Test("A directory of JSON files loads: flagd's format, Ensign's own form and a JSON environment overlay")
    func jsonDirectory() throws {
        let scratch = try Scratch()
        try scratch.write(
            "flags/flagd.json",
            """
            {"flags": {"newFlow": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
              "targeting": {"if": [{"in": [{"var": "country"}, ["FR", "BE"]]}, "on", "off"]}}}}
            """)
        try scratch.write(
            "flags/app.json",
            """
            {"version": 1, "namespace": "beneficiaries",
             "flags": {"pageSize": {"type": "int", "default": 20, "minimum": 5, "maximum": 100,
                                    "environments": {"staging": 30}}},
             "preferences": {"locale.language": {"type": "string", "enum": ["en", "fr"], "default": "en"}}}
            """)
        try scratch.write("flags/environments/production.json", #"{"flags": {"beneficiaries.pageSize": 50}}"#)
        let production = try Self.context(scratch.path + "/flags", "production")
        #expect(production.details(forKeyNamed: "beneficiaries.pageSize").value == 50)
        #expect(
            try Self.context(scratch.path + "/flags", "staging").details(forKeyNamed: "beneficiaries.pageSize").value
                == 30)
        let french = production.makeChild(
            label: "french", evaluationContext: EvaluationContext(targetingKey: "u", attributes: ["country": "FR"])
        ).details(forKeyNamed: "newFlow")
        #expect(french.value == true)
        #expect(french.variant == "on")
        #expect(production.details(forKeyNamed: "beneficiaries.locale.language").value == "en")
    }

    @Test("A bad JSON definition names its file, line, column and key")
    func jsonDiagnostics() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "flags/app.json",
            "{\"version\": 1,\n \"flags\": {\"pageSize\": {\"type\": \"int\", \"default\": \"twenty\"}}}\n")
        let error = #expect(throws: AppContextLoadError.self) { try Self.context(scratch.path + "/flags", "test") }
        let problem = try #require(error?.diagnostics.first { $0.isError })
        #expect(problem.location.file == path)
        #expect(problem.location.line == 2)
        #expect(problem.location.column == 51)
        #expect(problem.key == "pageSize")
    }

    @Test("A YAML file is refused with an error at its place that says to ship JSON, never skipped")
    func yamlIsRefused() throws {
        let scratch = try Scratch()
        try scratch.write("flags/good.json", #"{"flags": {"a": {"default": 1}}}"#)
        let yaml = try scratch.write("flags/app.yaml", "version: 1\nflags:\n  b: { default: 2 }\n")
        let error = #expect(throws: AppContextLoadError.self) { try Self.context(scratch.path + "/flags", "test") }
        let problem = try #require(error?.diagnostics.first { $0.isError })
        #expect(problem.location.file == yaml)
        #expect(problem.location.line == 1 && problem.location.column == 1)
        #expect(problem.message.hasPrefix("this build of Ensign has no YAML support"))
        #expect(problem.message.contains("ensign export"))
        #expect(throws: AppContextLoadError.self) { try AppContext(definitions: "flags:\n  a: { default: 1 }\n") }
    }

    @Test("YAML that happens to be JSON loads, wherever it comes from")
    func jsonInYAMLClothing() throws {
        let scratch = try Scratch()
        try scratch.write("flags/app.yaml", #"{"flags": {"a": {"default": 1}}}"#)
        #expect(try Self.context(scratch.path + "/flags", "test").details(forKeyNamed: "a").value == 1)
        let memory = try AppContext(definitions: #"{"flags": {"b": {"default": "x"}}}"#)
        #expect(memory.details(forKeyNamed: "b").value == "x")
    }
}
