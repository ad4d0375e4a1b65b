import Foundation

@testable import Ensign

/// The flagd evaluator suite in the shared conformance data: the Gherkin features and the
/// flag set they evaluate, read in place.
enum FlagdTestbed {
    static let directory = ConformanceData.directory.appendingPathComponent("flagd-testbed/evaluator")
    static let flagsFile = directory.appendingPathComponent("flags/testkit-flags.json")
    static let gherkinDirectory = directory.appendingPathComponent("gherkin")

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: flagsFile.path) }

    static var skipReason: String {
        "flagd evaluator conformance data not found at \(directory.path). It is open-feature/flagd-testbed's"
            + " evaluator/ folder; point ENSIGN_CONFORMANCE_DIR at a directory containing flagd-testbed/evaluator."
    }

    /// Every case of every feature file, in file order.
    static let cases: [GherkinFeature.Case] = {
        guard isAvailable,
            let names = try? FileManager.default.contentsOfDirectory(atPath: gherkinDirectory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".feature") }.sorted().flatMap { name -> [GherkinFeature.Case] in
            let url = gherkinDirectory.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            return GherkinFeature(text: text).cases
        }
    }()

    /// The cases a hashing version runs: untagged ones and those tagged for it.
    static func cases(for hashing: FractionalHashing) -> [GherkinFeature.Case] {
        let (own, other) = hashing == .v2 ? ("@fractional-v2", "@fractional-v1") : ("@fractional-v1", "@fractional-v2")
        return cases.filter { $0.tags.contains(own) || !$0.tags.contains(other) }
    }

    /// The testbed's flag set as an evaluator, compiled with `hashing`.
    static func evaluator(hashing: FractionalHashing, source: ConfigSource? = nil) -> FlagEvaluator {
        let loader = DefinitionLoader(targetingOptions: TargetingOptions(fractionalHashing: hashing))
        let flags = source ?? (try? ConfigSource.file(flagsFile.path)) ?? ConfigSource(name: "missing", text: "")
        // The testbed deliberately includes broken flags (they must resolve with PARSE_ERROR),
        // so the set is used whatever the loader reports.
        return FlagEvaluator(definitions: loader.loadDefinitions(from: [flags]).definitions)
    }
}
