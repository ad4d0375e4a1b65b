import EnsignTestSupport
import EnsignTooling
import EnsignYAML
import Testing

@testable import Ensign

/// flagd-testbed's flag set, written as YAML in a definitions directory and exported as a
/// bundle: every scenario must still pass, so the export loses nothing targeting depends on.
@Suite("flagd evaluator conformance through an exported bundle")
struct BundleConformanceTests {
    @Test(
        "Every scenario passes when the YAML form of the flag set is exported and loaded as a bundle",
        .enabled(if: FlagdTestbed.isAvailable, Comment(rawValue: FlagdTestbed.skipReason)))
    func exportedBundlePassesTheSuite() throws {
        let json = try #require(try YAMLParser().documents(contentsOf: FlagdTestbed.flagsFile.path).first)
        let scratch = try TemporaryDirectory()
        _ = try scratch.write("flags/testkit-flags.yaml", try YAMLEmitter().text(for: json))
        let export = DefinitionsBundleExporter().export(directory: scratch.path + "/flags")
        let text = try #require(export.text, "\(export.diagnostics.filter(\.isError))")
        let bundle = try scratch.write("testkit.bundle.json", text)
        let loaded = DefinitionLoader(targetingOptions: TargetingOptions(fractionalHashing: .v2)).loadBundle(bundle)
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        #expect(loaded.definitions.keys == FlagdEvaluatorConformanceTests.v2.baseInputs.layout.definitions.keys)
        let scenarios = FlagdTestbed.cases(for: .v2)
        #expect(scenarios.count > 100)
        for scenario in scenarios {
            FlagdScenarioRunner(evaluator: evaluator).run(scenario)
        }
    }
}
