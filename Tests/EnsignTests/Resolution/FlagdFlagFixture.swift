import Ensign
import EnsignJSON

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
}
