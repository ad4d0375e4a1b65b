import Ensign
import EnsignJSON
import Testing

/// The flag most of flagd's parity cases use: `f`, a boolean with variants `on` (true) and
/// `off` (false) and default variant `off`, with the targeting rule under test, read from a
/// flagd JSON file and evaluated by a ``FlagEvaluator``.
struct FlagdFlagFixture {
    let evaluator: FlagEvaluator
    let result: DefinitionLoadResult

    /// `f` with `targeting` (JSON text; `nil` for no targeting member), `variants` (JSON text)
    /// and `defaultVariant` (JSON text; `nil` leaves it out).
    init(targeting: String?, variants: String = #"{"on": true, "off": false}"#, defaultVariant: String? = #""off""#) {
        var members = [#""state": "ENABLED""#, #""variants": \#(variants)"#]
        if let defaultVariant { members.append(#""defaultVariant": \#(defaultVariant)"#) }
        if let targeting { members.append(#""targeting": \#(targeting)"#) }
        let text = #"{"flags": {"f": {\#(members.joined(separator: ", "))}}}"#
        result = DefinitionLoader().loadDefinitions(from: [ConfigSource(name: "flags.json", text: text)])
        evaluator = FlagEvaluator(definitions: result.definitions)
    }

    /// `f` evaluated for `context` (a JSON object's text; `targetingKey` is the targeting key).
    func details(_ context: String = "{}") throws -> ResolutionDetails<JSONValue> {
        evaluator.details(forKeyNamed: "f", context: EvaluationContext(json: try JSONValue(jsonText: context)))
    }

    /// `f` evaluated for `context` as `value / variant / reason / error code` (`-` for none),
    /// the form in which the tests record flagd's Go evaluator's answers.
    func outcome(_ context: String = "{}") throws -> String {
        let details = try details(context)
        return [
            details.value.isNull ? "-" : details.value.jsonText, details.variant ?? "-", details.reason.rawValue,
            details.errorCode?.rawValue ?? "-",
        ].joined(separator: " / ")
    }

    /// One parity case: `f` with `targeting`, evaluated for `context` (a JSON object's text), and
    /// the outcome the research note's Go harness printed for it.
    struct Case: Sendable, CustomTestStringConvertible {
        let targeting: String
        let context: String
        let expected: String

        init(targeting: String, context: String = "{}", expected: String) {
            (self.targeting, self.context, self.expected) = (targeting, context, expected)
        }

        init(_ targeting: String, _ context: String, _ expected: String) {
            self.init(targeting: targeting, context: context, expected: expected)
        }

        init(_ targeting: String, _ expected: String) {
            self.init(targeting: targeting, expected: expected)
        }

        var testDescription: String { "\(targeting) with \(context) → \(expected)" }
    }

    /// Expects `example`'s rule to load without an error and to evaluate to its outcome.
    static func expectLoadsAndEvaluates(_ example: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let flag = FlagdFlagFixture(targeting: example.targeting)
        #expect(flag.result.flagErrors.isEmpty, "\(flag.result.flagErrors)", sourceLocation: sourceLocation)
        #expect(try flag.outcome(example.context) == example.expected, sourceLocation: sourceLocation)
    }
}
