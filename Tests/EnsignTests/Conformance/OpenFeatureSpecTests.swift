import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Runs OpenFeature's own Gherkin suites (hooks, context merging, evaluation v2, metadata) over
/// `test-flags.json` converted to a flagd flag file. Every case runs, or is named in
/// ``OpenFeatureSpecSuite/notApplicable`` with its reason.
@Suite("OpenFeature specification Gherkin suites (open-feature/spec)")
struct OpenFeatureSpecTests {
    static let available = OpenFeatureSpecSuite.isAvailable
    static let skipReason = Comment(rawValue: OpenFeatureSpecSuite.skipReason)

    @Test(
        "Each applicable scenario passes", .enabled(if: available, skipReason),
        arguments: OpenFeatureSpecSuite.applicableCases)
    func scenario(_ specCase: OpenFeatureSpecSuite.SpecCase) throws {
        var runner = try OpenFeatureSpecRunner(specCase)
        runner.run()
    }

    @Test("Each suite file gives the expected number of cases", .enabled(if: available, skipReason))
    func caseCounts() {
        for (file, expected) in OpenFeatureSpecSuite.expectedCaseCounts {
            let found = OpenFeatureSpecSuite.cases.filter { $0.file == file }
            #expect(expected > 0)
            #expect(found.count == expected, "\(file): cases found")
            let run = found.filter { OpenFeatureSpecSuite.exclusion(for: $0) == nil }
            #expect(!run.isEmpty, "\(file): cases run")
        }
        let files = Set(OpenFeatureSpecSuite.expectedCaseCounts.map(\.key))
        #expect(Set(OpenFeatureSpecSuite.cases.map(\.file)) == files)
    }

    @Test(
        "The not-applicable table names only cases that exist, each with a reason",
        .enabled(if: available, skipReason))
    func exclusionsNameExistingCases() {
        let files = Set(OpenFeatureSpecSuite.expectedCaseCounts.map(\.key))
        for exclusion in OpenFeatureSpecSuite.notApplicable {
            #expect(files.contains(exclusion.file), "\(exclusion): a suite file")
            let selected = OpenFeatureSpecSuite.cases.filter {
                $0.file == exclusion.file && exclusion.selector.selects($0.scenario)
            }
            #expect(!selected.isEmpty, "\(exclusion) selects no case")
            #expect(!exclusion.reason.isEmpty, "\(exclusion): a reason")
        }
    }

    @Test(
        "test-flags.json converts to a flagd file Ensign loads without errors, every field mapped",
        .enabled(if: available, skipReason))
    func conversion() throws {
        let text = try OpenFeatureSpecSuite.flagdFileText.get()
        let flags = try #require(try JSONValue(jsonText: text).objectValue?["flags"]?.objectValue)
        #expect(flags.count == 25)
        #expect(flags["boolean-disabled-flag"]?.objectValue?["state"] == "DISABLED")
        #expect(flags["boolean-flag"]?.objectValue?["state"] == "ENABLED")
        #expect(flags["boolean-flag"]?.objectValue?["metadata"] == nil)
        #expect(flags["metadata-flag"]?.objectValue?["metadata"]?.objectValue?["integer"] == 2)
        #expect(flags["null-default-flag"]?.objectValue?["defaultVariant"] == .null)
        #expect(flags["undefined-default-flag"]?.objectValue?["defaultVariant"] == nil)
        let targeted = flags.filter { $0.value.objectValue?["targeting"] != nil }.keys.sorted()
        #expect(
            targeted == [
                "boolean-targeted-zero-flag", "complex-targeted", "float-targeted-zero-flag",
                "integer-targeted-zero-flag", "object-targeted-zero-flag", "string-targeted-zero-flag",
            ])

        let directory = try TemporaryDirectory()
        try directory.write("openfeature-test-flags.json", text)
        let context = try unwatchedContext(directory.path, environment: "test")
        #expect(context.loadDiagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test("The CEL translations state their expressions' rules", .enabled(if: available, skipReason))
    func celTranslations() throws {
        let directory = try TemporaryDirectory()
        try directory.write("openfeature-test-flags.json", try OpenFeatureSpecSuite.flagdFileText.get())
        let context = try unwatchedContext(directory.path, environment: "test")
        func complex(_ attributes: [String: JSONValue]) -> (String, ResolutionReason) {
            let details = context.makeChild(label: "call", evaluationContext: EvaluationContext(attributes: attributes))
                .details(for: FlagKey("complex-targeted", default: "fallback"))
            return (details.value, details.reason)
        }
        let ballmer: [String: JSONValue] = ["customer": false, "email": "ballmer@macrosoft.com", "age": 15]
        #expect(complex(ballmer) == ("INTERNAL", .targetingMatch))
        // '' is no variant: the default variant, DEFAULT.
        #expect(complex(ballmer.merging(["age": 10]) { $1 }) == ("EXTERNAL", .defaultValue))
        #expect(complex(ballmer.merging(["customer": true]) { $1 }) == ("EXTERNAL", .defaultValue))
        #expect(complex(ballmer.merging(["email": "jobs@orange.com"]) { $1 }) == ("EXTERNAL", .defaultValue))
        // CEL's `!customer` negates a boolean, and `==` does not convert types.
        #expect(complex(ballmer.merging(["customer": 0]) { $1 }) == ("EXTERNAL", .defaultValue))
        #expect(complex(ballmer.filter { $0.key != "customer" }) == ("EXTERNAL", .defaultValue))
    }

    @Test("A field or CEL expression the conversion does not know is an error, not dropped")
    func unknownInputIsRefused() {
        #expect(throws: OpenFeatureSpecSuite.ConversionError.self) {
            try OpenFeatureSpecSuite.flagdFlags(fromTestFlags: ["f": ["variants": ["a": 1], "rollout": 5]])
        }
        #expect(throws: OpenFeatureSpecSuite.ConversionError.self) {
            try OpenFeatureSpecSuite.flagdFlags(
                fromTestFlags: ["f": ["variants": ["a": 1], "contextEvaluator": "age > 1 ? 'a' : ''"]])
        }
    }
}
