import EnsignTestSupport
import EnsignTooling
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

/// A bundle made by `ensign export` must resolve exactly as the directory it came from, and a
/// broken bundle must be reported at its own line and column.
@Suite("Definitions bundles (ensign export)")
struct DefinitionsBundleTests {
    /// The sample banking app's definitions, at the top of the package.
    static let bankingFlags = BuiltExecutable.packageRoot.appendingPathComponent("flags").path

    /// Evaluation contexts that reach every branch of the sample's targeting.
    static let contexts: [EvaluationContext] =
        [
            .empty,
            EvaluationContext(targetingKey: "user-1", attributes: ["country": "FR"]),
            EvaluationContext(targetingKey: "user-2", attributes: ["country": "BE"]),
            EvaluationContext(targetingKey: "user-3", attributes: ["country": "DE"]),
            EvaluationContext(targetingKey: "staff", attributes: ["email": "ana@bforbank.example", "country": "DE"]),
        ] + (0..<40).map { EvaluationContext(targetingKey: "user-\($0)", attributes: ["country": "FR"]) }

    /// What a resolution says, without where it came from (which differs by design).
    struct Outcome: Equatable, CustomStringConvertible {
        var value: JSONValue
        var variant: String?
        var reason: ResolutionReason
        var errorCode: ResolutionErrorCode?
        var metadata: [String: JSONValue]

        init(_ details: ResolutionDetails<JSONValue>) {
            (value, variant, reason, errorCode, metadata) =
                (details.value, details.variant, details.reason, details.errorCode, details.metadata)
        }

        var description: String { "\(value) \(variant ?? "-") \(reason) \(errorCode.map(\.rawValue) ?? "-")" }
    }

    /// Every key under every context, for one loaded environment.
    static func outcomes(_ loaded: DirectoryLoadResult, environment: String) -> [String: [Outcome]] {
        let evaluator = FlagEvaluator(
            definitions: loaded.definitions, environment: environment, environmentOverlay: loaded.environmentOverlay,
            deploymentOverlays: [])
        return Dictionary(
            uniqueKeysWithValues: loaded.definitions.keys.map { key in
                (key, contexts.map { Outcome(evaluator.details(forKeyNamed: key, context: $0)) })
            })
    }

    /// Exports `directory` into a file of `scratch`, or fails the test with the diagnostics.
    static func exportedBundle(of directory: String, environment: String? = nil, in scratch: TemporaryDirectory)
        throws -> String
    {
        let export = DefinitionsBundleExporter().export(directory: directory, environment: environment)
        let text = try #require(export.text, "\(export.diagnostics)")
        return try scratch.write("Flags.bundle.json", text)
    }

    /// Exports a directory of `scratch` holding `yaml` as `flags/app.yaml`, expecting no bundle;
    /// returns why.
    static func refusedExport(of yaml: String, in scratch: TemporaryDirectory) throws -> [Diagnostic] {
        try scratch.write("flags/app.yaml", yaml)
        let export = DefinitionsBundleExporter().export(directory: scratch.path + "/flags")
        #expect(export.text == nil)
        return export.diagnostics
    }

    @Test("The exported sample app resolves every key, variant and reason as its YAML directory, in every environment")
    func bankingSampleRoundTrips() throws {
        let scratch = try TemporaryDirectory()
        let bundle = try Self.exportedBundle(of: Self.bankingFlags, in: scratch)
        let loader = DefinitionLoader()
        for environment in ["development", "staging", "production"] {
            let fromDirectory = loader.loadDirectory(Self.bankingFlags, environment: environment)
            let fromBundle = loader.loadBundle(bundle, environment: environment)
            #expect(!fromDirectory.diagnostics.containsErrors)
            #expect(fromBundle.diagnostics.isEmpty, "\(fromBundle.diagnostics)")
            #expect(fromBundle.definitions.keys == fromDirectory.definitions.keys)
            #expect(fromBundle.definitions.keys.count >= 5)
            #expect(fromBundle.knownEnvironments == fromDirectory.knownEnvironments)
            #expect(
                fromBundle.environmentOverlay?.flags.keys.sorted()
                    == fromDirectory.environmentOverlay?.flags.keys.sorted())
            let expected = Self.outcomes(fromDirectory, environment: environment)
            let actual = Self.outcomes(fromBundle, environment: environment)
            for key in expected.keys.sorted() {
                #expect(actual[key] == expected[key], "\(environment) \(key)")
            }
            // The targeting splits the French users, so the comparison saw both variants.
            let newFlow = Set(expected["transfers.newFlow"]?.compactMap(\.variant) ?? [])
            #expect(newFlow == ["on", "off"])
        }
    }

    @Test("The bundle the JSON-only app fixture ships is what ensign export makes of the sample app today")
    func checkedInBundleIsCurrent() throws {
        let fixture = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Fixtures/WithoutYAML/Flags.bundle.json")
        let checkedIn = try String(contentsOf: fixture, encoding: .utf8)
        let export = DefinitionsBundleExporter().export(directory: Self.bankingFlags)
        #expect(
            export.text == checkedIn,
            "regenerate it: ensign export --flags flags --output Tests/Fixtures/WithoutYAML/Flags.bundle.json")
    }

    @Test("A context built from the bundle reads the same values and names the bundle's line as the source")
    func contextLoadsBundle() throws {
        let scratch = try TemporaryDirectory()
        let bundle = try Self.exportedBundle(of: Self.bankingFlags, in: scratch)
        let fromBundle = try unwatchedContext(bundle, environment: "development")
        let fromDirectory = try unwatchedContext(Self.bankingFlags, environment: "development")
        for key in fromDirectory.definitions.keys {
            #expect(
                Outcome(fromBundle.details(forKeyNamed: key)) == Outcome(fromDirectory.details(forKeyNamed: key)),
                "\(key)")
        }
        let source = fromBundle.details(forKeyNamed: "beneficiaries.showPendingList").source
        #expect(source.location?.file == bundle)
        #expect((source.location?.line ?? 0) > 1)
    }

    @Test("A context from a bundle reloads the bundle when it is replaced, and keeps the last good one when it breaks")
    func contextReloadsBundle() throws {
        let scratch = try TemporaryDirectory()
        let bundle = try Self.exportedBundle(of: Self.bankingFlags, in: scratch)
        let context = try unwatchedContext(bundle, environment: "production")
        #expect(context.details(forKeyNamed: "beneficiaries.pageSize").value == 20)
        let original = try String(contentsOfFile: bundle, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "\"default\": 20,", with: "\"default\": 30,")
        #expect(edited != original)
        _ = try scratch.write("Flags.bundle.json", edited)
        #expect(!context.reload().containsErrors)
        #expect(context.details(forKeyNamed: "beneficiaries.pageSize").value == 30)
        _ = try scratch.write("Flags.bundle.json", String(edited.dropLast(3)))
        #expect(context.reload().containsErrors)
        #expect(context.details(forKeyNamed: "beneficiaries.pageSize").value == 30)
    }

    @Test("--env puts only that environment in the bundle, and the bundle then refuses the others by name")
    func singleEnvironmentExport() throws {
        let scratch = try TemporaryDirectory()
        let bundle = try Self.exportedBundle(of: Self.bankingFlags, environment: "production", in: scratch)
        let text = try String(contentsOfFile: bundle, encoding: .utf8)
        #expect(text.contains("\"production\": ["))
        #expect(!text.contains("\"staging\": ["))
        let loaded = DefinitionLoader().loadBundle(bundle, environment: "production")
        #expect(!loaded.diagnostics.containsErrors)
        // Staging is still known through an inline `environments:` value, so a context for it
        // loads; one no file mentions is refused.
        let unknown = DefinitionLoader().loadBundle(bundle, environment: "prod")
        #expect(unknown.diagnostics.contains { $0.isError && $0.message.contains("did you mean 'production'?") })
        let refused = DefinitionsBundleExporter().export(directory: Self.bankingFlags, environment: "prod")
        #expect(refused.text == nil)
        #expect(refused.diagnostics.containsErrors)
    }

    @Test("A directory with errors is not exported, and the errors name the YAML file")
    func brokenDirectoryIsRefused() throws {
        let diagnostics = try Self.refusedExport(
            of: "version: 1\nflags:\n  pageSize: { type: int, default: twenty }\n", in: TemporaryDirectory())
        #expect(diagnostics.contains { $0.isError && $0.location.file.hasSuffix("flags/app.yaml") })
    }

    @Test("YAML's own features (anchors, merge keys, tags, hex and octal numbers) export to what they meant")
    func yamlFeaturesExport() throws {
        let scratch = try TemporaryDirectory()
        _ = try scratch.write(
            "flags/app.yaml",
            """
            version: 1
            flags:
              base: &base { type: int, default: 0x1F, minimum: 0o7 }
              copy: { <<: *base, description: !!str 12 }
              label: { type: string, default: "yes" }
              ratio: { default: 1.50 }
              huge: { type: double, default: 123456789012345678901234 }
            """)
        let bundle = try Self.exportedBundle(of: scratch.path + "/flags", in: scratch)
        let fromDirectory = DefinitionLoader().loadDirectory(scratch.path + "/flags")
        let fromBundle = DefinitionLoader().loadBundle(bundle)
        #expect(fromBundle.diagnostics.isEmpty, "\(fromBundle.diagnostics)")
        #expect(Self.outcomes(fromBundle, environment: "") == Self.outcomes(fromDirectory, environment: ""))
        #expect(fromBundle.definitions["copy"]?.summary == "12")
        #expect(FlagEvaluator(definitions: fromBundle.definitions).details(forKeyNamed: "copy").value == 31)
    }

    @Test("An infinite default has no JSON form: the export fails at its place instead of writing a bad bundle")
    func infinityIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let diagnostics = try Self.refusedExport(
            of: "version: 1\nflags:\n  limit: { type: double, default: .inf }\n", in: scratch)
        let problem = try #require(diagnostics.first { $0.isError })
        #expect(problem.description.hasPrefix(scratch.path + "/flags/app.yaml:3:35: error: inf has no JSON form"))
    }
}
