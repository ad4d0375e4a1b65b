import EnsignJSON
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

/// Runs every scenario of flagd-testbed's evaluator suite through Ensign's loader and
/// evaluator, one generic runner for all of them: a new case is a new data row.
@Suite("flagd evaluator conformance (flagd-testbed)")
struct FlagdEvaluatorConformanceTests {
    static let v2 = FlagdTestbed.evaluator(hashing: .v2)
    static let v1 = FlagdTestbed.evaluator(hashing: .v1)

    @Test(
        "Each scenario passes with v2 fractional hashing (flagd's current)",
        .enabled(if: FlagdTestbed.isAvailable, Comment(rawValue: FlagdTestbed.skipReason)),
        arguments: FlagdTestbed.cases(for: .v2))
    func scenarioV2(_ scenario: GherkinFeature.Case) {
        FlagdScenarioRunner(evaluator: Self.v2).run(scenario)
    }

    @Test(
        "Each scenario passes with v1 fractional hashing (selectable)",
        .enabled(if: FlagdTestbed.isAvailable, Comment(rawValue: FlagdTestbed.skipReason)),
        arguments: FlagdTestbed.cases(for: .v1).filter { $0.tags.contains("@fractional-v1") })
    func scenarioV1(_ scenario: GherkinFeature.Case) {
        FlagdScenarioRunner(evaluator: Self.v1).run(scenario)
    }

    @Test(
        "The same scenarios pass when the flag set is converted to YAML",
        .enabled(if: FlagdTestbed.isAvailable, Comment(rawValue: FlagdTestbed.skipReason)))
    func yamlGivesIdenticalResults() throws {
        let json = try #require(try YAMLParser().documents(contentsOf: FlagdTestbed.flagsFile.path).first)
        let yaml = try YAMLEmitter().text(for: json)
        #expect(!yaml.hasPrefix("{"))
        let evaluator = FlagdTestbed.evaluator(
            hashing: .v2, source: ConfigSource(name: "testkit-flags.yaml", text: yaml))
        for scenario in FlagdTestbed.cases(for: .v2) {
            FlagdScenarioRunner(evaluator: evaluator).run(scenario)
        }
    }

    @Test("The runner found the suite's scenarios", .enabled(if: FlagdTestbed.isAvailable))
    func suiteIsNotEmpty() {
        #expect(FlagdTestbed.cases.count > 100)
    }
}

/// Interprets the suite's steps against a ``FlagEvaluator``.
struct FlagdScenarioRunner {
    let evaluator: FlagEvaluator

    func run(_ scenario: GherkinFeature.Case) {
        var key = ""
        var type = ""
        var fallback = ""
        var targetingKey: String?
        var attributes: [String: JSONValue] = [:]
        var details: ResolutionDetails<JSONValue>?
        var typedValue: JSONValue?
        for step in scenario.steps {
            let quoted = GherkinFeature.quotedValues(step.text)
            switch true {
            case step.text == "an evaluator":
                continue
            case step.text.contains("-flag with key"):
                type = String(step.text.dropFirst(2).prefix { $0 != "-" })
                key = quoted[0]
                fallback = quoted[1]
            case step.text.hasPrefix("a context containing a targeting key"):
                targetingKey = quoted[0]
            case step.text.hasPrefix("a context containing a key"):
                attributes[quoted[0]] = Self.value(quoted[2], ofType: quoted[1])
            case step.text.hasPrefix("a context containing a nested property"):
                var inner = attributes[quoted[0]]?.objectValue ?? [:]
                inner[quoted[1]] = .string(quoted[2])
                attributes[quoted[0]] = .object(inner)
            case step.text == "the flag was evaluated with details":
                let context = EvaluationContext(targetingKey: targetingKey, attributes: attributes)
                let result = evaluator.details(forKeyNamed: key, context: context)
                let codeDefault = Self.value(fallback, ofType: type)
                (details, typedValue) = (result, Self.typed(result, as: type, fallback: codeDefault))
            case step.text.hasPrefix("the resolved details value should be"):
                // The expected value may itself contain quotes (an object's JSON).
                let expected = String(step.text.drop { $0 != "\"" }.dropFirst().dropLast())
                #expect(typedValue == Self.value(expected, ofType: type), "\(scenario): value of '\(key)'")
            case step.text.hasPrefix("the reason should be"):
                #expect(details?.reason.rawValue == quoted[0], "\(scenario): reason of '\(key)'")
            case step.text.hasPrefix("the error-code should be"):
                let code = Self.typedErrorCode(details, as: type)
                #expect(code == quoted[0], "\(scenario): error code of '\(key)'")
            case step.text.hasPrefix("the variant should be"):
                #expect(details?.variant == quoted[0], "\(scenario): variant of '\(key)'")
            case step.text == "the resolved metadata is empty":
                #expect(details?.metadata.isEmpty == true, "\(scenario): metadata of '\(key)'")
            case step.text == "the resolved metadata should contain":
                for row in step.table.dropFirst() {
                    #expect(
                        details?.metadata[row[0]] == Self.value(row[2], ofType: row[1]),
                        "\(scenario): metadata '\(row[0])' of '\(key)'")
                }
            default:
                Issue.record("\(scenario): unknown step '\(step.text)'")
            }
        }
    }

    /// What an OpenFeature client of `type` would return: the value when it has that type (an
    /// integer may be written as a whole double, `2.0`, as Ensign's typed reads accept), else
    /// the fallback (a type mismatch).
    static func typed(_ details: ResolutionDetails<JSONValue>, as type: String, fallback: JSONValue) -> JSONValue {
        guard !details.value.isNull, let flagType = flagType(type), let value = flagType.coerce(details.value)
        else { return fallback }
        return value
    }

    static func typedErrorCode(_ details: ResolutionDetails<JSONValue>?, as type: String) -> String? {
        guard let details else { return nil }
        if let code = details.errorCode { return code.rawValue }
        guard !details.value.isNull, let flagType = flagType(type) else { return nil }
        let matches = flagType.coerce(details.value) != nil
        return matches ? nil : ResolutionErrorCode.typeMismatch.rawValue
    }

    static func flagType(_ gherkinType: String) -> FlagType? {
        switch gherkinType {
        case "Boolean": return .bool
        case "String": return .string
        case "Integer": return .int
        case "Float": return .double
        case "Object": return .object
        default: return nil
        }
    }

    /// The suite's value for `text`: a Boolean's empty cell is `false`, and text that is not
    /// of its type stays text (so that a mismatch shows in the failure).
    static func value(_ text: String, ofType type: String) -> JSONValue {
        if type == "Boolean" { return .bool(text == "true") }
        return GherkinFeature.value(text, ofType: type) ?? .string(text)
    }
}
