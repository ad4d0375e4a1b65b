import Ensign

/// Whether a targeted flag gives every context the same value: the `fullyRolledOut` finding
/// of `ensign debt`.
///
/// The loader's list of a rule's possible results (``TargetingRule/possibleStringResults``)
/// is not enough to prove that: it lists literal strings only, including buckets of weight 0,
/// and does not say whether the rule can fall through to the default. So this reads the rule
/// as written, and knows only the shapes a rollout takes:
///
/// - a literal: a variant name (or, for a flag without variants, the value); `null` falls
///   through to the files' value;
/// - `if` (or `?:`): any of its branches, or a fall-through when it has no `else`; the
///   conditions are not read, since any of them may hold;
/// - `fractional` with literal buckets: every variant with a weight above 0, and a
///   fall-through when the bucketing key is the targeting key, which a context may lack;
/// - `$ref` to one of those.
///
/// Anything else (a `var` as the result, arithmetic, …) may give any value, so the flag is
/// not reported. A fall-through reads the definition's default, or the value an environment
/// gives (inline or in its overlay file), so every one of those counts as a result too. An
/// evaluation that fails reads the code default with an error: a broken rule, which other
/// checks report, not a rollout.
enum RolloutAnalysis {
    /// What a part of a rule can evaluate to.
    private enum Outcome: Hashable {
        /// A non-null result.
        case result(JSONValue)
        /// `null`: the files' value applies.
        case fallsThrough
    }

    /// The one value every context gets from `definition`, or `nil` when that is not proved
    /// (or the flag has no targeting: a static flag is not a rollout).
    ///
    /// - Parameter environmentOverlays: the environments' overlay files.
    static func constantValue(
        of definition: FlagDefinition, evaluators: [String: LocatedValue], environmentOverlays: [Overlay]
    ) -> JSONValue? {
        guard definition.isEnabled, definition.compiledTargeting != nil, definition.targetingProblem == nil,
            definition.servingProblem == nil, let rule = definition.targeting?.value,
            let outcomes = outcomes(of: rule, evaluators: evaluators, depth: 0)
        else { return nil }
        var values: Set<JSONValue> = []
        for outcome in outcomes {
            switch outcome {
            case .result(let result):
                guard let value = value(of: result, in: definition) else { return nil }
                values.insert(value)
            case .fallsThrough:
                // With no default the code default applies, which the files do not know.
                guard let defaultValue = definition.defaultValue?.value else { return nil }
                values.insert(defaultValue)
                for (_, located) in definition.environmentValues { values.insert(located.value) }
                for overlay in environmentOverlays {
                    if let located = overlay.value(for: definition.key, kind: definition.kind) {
                        values.insert(located.value)
                    }
                }
            }
            if values.count > 1 { return nil }
        }
        return values.count == 1 ? values.first : nil
    }

    /// The value a rule's non-null result serves, as the resolver reads it; `nil` when it
    /// serves none (an unknown variant, a value that does not fit), which is an error.
    private static func value(of result: JSONValue, in definition: FlagDefinition) -> JSONValue? {
        guard definition.variants.isEmpty else {
            return TargetingRule.variantName(for: result).flatMap { definition.variants[$0] }
        }
        guard case .success(let value) = definition.check(result) else { return nil }
        return value
    }

    /// Everything `rule` can evaluate to, or `nil` when that is not known.
    private static func outcomes(of rule: JSONValue, evaluators: [String: LocatedValue], depth: Int) -> Set<Outcome>? {
        // Deep enough for any rollout; a `$ref` cycle ends here too.
        guard depth < 64 else { return nil }
        switch rule {
        case .null:
            return [.fallsThrough]
        case .bool, .int, .double, .string:
            return [.result(rule)]
        case .array:
            return nil
        case .object(let members):
            guard members.count == 1, let (name, operand) = members.first.map({ ($0.key, $0.value) }) else {
                return nil
            }
            switch name {
            case "if", "?:":
                return branches(of: operand, evaluators: evaluators, depth: depth)
            case "fractional":
                return fractional(operand)
            case "$ref":
                guard case .string(let evaluator) = operand, let body = evaluators[evaluator]?.value else { return nil }
                return outcomes(of: body, evaluators: evaluators, depth: depth + 1)
            default:
                return nil
            }
        }
    }

    /// `if`'s arguments are `[condition, then, condition, then, …, else?]`.
    private static func branches(of operand: JSONValue, evaluators: [String: LocatedValue], depth: Int)
        -> Set<Outcome>?
    {
        guard case .array(let arguments) = operand, arguments.count >= 2 else { return nil }
        var results: Set<Outcome> = arguments.count.isMultiple(of: 2) ? [.fallsThrough] : []
        for index in arguments.indices where index % 2 == 1 || index == arguments.count - 1 {
            guard let branch = outcomes(of: arguments[index], evaluators: evaluators, depth: depth + 1) else {
                return nil
            }
            results.formUnion(branch)
        }
        return results
    }

    /// `fractional`'s literal buckets with a weight above 0. A weight flagd would refuse makes
    /// the whole operation `null`, so only whole numbers are read.
    private static func fractional(_ operand: JSONValue) -> Set<Outcome>? {
        guard case .array(var arguments) = operand, let first = arguments.first else { return nil }
        var results: Set<Outcome> = []
        switch first {
        case .string:
            arguments.removeFirst()  // a constant bucketing key: every subject gets one bucket
        case .null, .object:
            // The targeting key (or a computed key, which may be null and fall back to it).
            arguments.removeFirst()
            results.insert(.fallsThrough)
        default:
            results.insert(.fallsThrough)
        }
        var total = 0
        for bucket in arguments {
            guard case .array(let items) = bucket, let variant = items.first, items.count <= 2 else { return nil }
            let weight: Int
            switch items.count > 1 ? items[1] : .null {
            case .null: weight = 1
            case .int(let value): weight = max(value, 0)
            default: return nil
            }
            total += weight
            guard total <= Int(Int32.max) else { return nil }
            guard weight > 0 else { continue }
            switch variant {
            case .null: results.insert(.fallsThrough)
            case .bool, .int, .double, .string: results.insert(.result(variant))
            case .array, .object: return nil
            }
        }
        if total == 0 { results = [.fallsThrough] }
        return results
    }
}
