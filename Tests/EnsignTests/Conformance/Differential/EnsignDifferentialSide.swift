import Ensign
import EnsignJSON

/// Ensign's side of the harness: loads a case's flag set as a `.json` file through
/// ``DefinitionLoader`` (v2 fractional hashing, like the reference) and evaluates each
/// evaluation with ``FlagEvaluator``, reading the value as an OpenFeature provider built on
/// Ensign would for the requested type.
enum EnsignDifferentialSide {
    /// One evaluation's result: what the caller sees, and the untyped value behind it (what
    /// some mismatch classes look at).
    struct Result: Sendable {
        var outcome: EvaluationOutcome
        var untypedValue: JSONValue
        /// What the loader reported about this flag (or the whole file), for the reports.
        var loadErrors: [String] = []
    }

    static func evaluate(_ testCase: DifferentialCase) -> [Result] {
        let loader = DefinitionLoader(targetingOptions: TargetingOptions(fractionalHashing: .v2))
        let source = ConfigSource(name: "differential.json", text: testCase.flagSetText)
        // A flag with a problem of its own resolves with an error code; the others still work.
        let loaded = loader.loadDefinitions(from: [source])
        let evaluator = FlagEvaluator(definitions: loaded.definitions)
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        return testCase.evaluations.map { evaluation in
            var result = evaluate(evaluation, with: evaluator)
            result.loadErrors = errors.filter { concerns($0, evaluation.flagKey) }.map(\.message)
            return result
        }
    }

    /// Whether a diagnostic is about the flag `key` (by its key path, or naming it).
    static func concerns(_ diagnostic: Diagnostic, _ key: String) -> Bool {
        diagnostic.key == key || diagnostic.message.contains("'\(key)'")
            || diagnostic.message.contains(GeneratedJSON.string(key).text())
    }

    static func evaluate(_ evaluation: DifferentialCase.Evaluation, with evaluator: FlagEvaluator) -> Result {
        let json = (try? JSONValue(jsonText: evaluation.context.text())) ?? .object([:])
        let context = EvaluationContext(json: json)
        let key = evaluation.flagKey
        let untyped = evaluator.details(forKeyNamed: key, context: context)
        let outcome: EvaluationOutcome
        switch evaluation.type {
        case .bool: outcome = Self.outcome(evaluator.details(forKeyNamed: key, default: false, context: context))
        case .string: outcome = Self.outcome(evaluator.details(forKeyNamed: key, default: "fallback", context: context))
        case .int: outcome = Self.outcome(evaluator.details(forKeyNamed: key, default: -1, context: context))
        case .float: outcome = Self.outcome(evaluator.details(forKeyNamed: key, default: -1.5, context: context))
        case .object: outcome = objectOutcome(untyped)
        }
        return Result(outcome: outcome, untypedValue: untyped.value)
    }

    static func outcome<Value: FlagValueConvertible>(_ details: ResolutionDetails<Value>) -> EvaluationOutcome {
        EvaluationOutcome(
            value: details.value.flagValue, variant: details.variant, reason: details.reason.rawValue,
            errorCode: details.errorCode?.rawValue)
    }

    /// An object read: flagd's Go daemon needs a JSON object (`map[string]any`); anything else
    /// is a type mismatch, and no value means the caller's default.
    static func objectOutcome(_ details: ResolutionDetails<JSONValue>) -> EvaluationOutcome {
        let fallback = FlagKind.object.callerDefault
        if details.errorCode != nil || details.value.isNull {
            return EvaluationOutcome(
                value: fallback, variant: details.variant, reason: details.reason.rawValue,
                errorCode: details.errorCode?.rawValue)
        }
        guard case .object = details.value else {
            return EvaluationOutcome(value: fallback, variant: nil, reason: "ERROR", errorCode: "TYPE_MISMATCH")
        }
        return EvaluationOutcome(
            value: details.value, variant: details.variant, reason: details.reason.rawValue, errorCode: nil)
    }
}
