import Ensign
import EnsignJSON

/// (b, c, d) Evaluation for a given context: a targeted flag (two conditions and a
/// `fractional` split) through ``FlagEvaluator`` and through the bare compiled rule, a
/// `sem_ver` rule, and a flag without targeting through the evaluator.
enum EvaluationEntries {
    static func group() -> BenchmarkGroup {
        let targetedGoal = Target.time(atMostNanoseconds: 1000, aim: 300)
        return ReferenceDictionaries.group(
            "evaluation", iterations: Iterations(full: 500_000, quick: 50_000), fixture: try EvaluationFixture()
        ) { entries in
            [
                entries.entry(
                    id: "evaluator targeted", name: "FlagEvaluator.details, 2 conditions + fractional",
                    target: targetedGoal,
                    note: "details(forKeyNamed:context:) of a long-form flag; the ratio is for information",
                    body: evaluating(\.targetedKeys)),
                entries.entry(
                    id: "rule targeted", name: "TargetingRule.evaluate, 2 conditions + fractional",
                    target: targetedGoal, body: evaluating(\.targetingRule, for: \.targetedKeys)),
                entries.entry(
                    id: "rule sem_ver", name: "TargetingRule.evaluate, sem_ver",
                    note: "{\"sem_ver\": [{\"var\": \"appVersion\"}, \">=\", \"2.4.0\"]}",
                    body: evaluating(\.semVerRule, for: \.semVerKeys)),
                entries.entry(
                    id: "evaluator static", name: "FlagEvaluator.details, no targeting",
                    body: evaluating(\.untargetedKeys)),
            ]
        }
    }

    /// `FlagEvaluator.details` of the flag `keys` names, for the fixture's context.
    private static func evaluating(
        _ keys: KeyPath<EvaluationFixture, [String]>
    ) -> (EvaluationFixture, Int) -> Void {
        { fixture, count in
            let (evaluator, keys, context) = (fixture.evaluator, fixture[keyPath: keys], fixture.context)
            for _ in 0..<count { blackHole(evaluator.details(forKeyNamed: keys[opaqueZero], context: context)) }
        }
    }

    /// A rule compiled on its own, evaluated for the flag `keys` names and the fixture's context.
    private static func evaluating(
        _ rule: KeyPath<EvaluationFixture, TargetingRule>, for keys: KeyPath<EvaluationFixture, [String]>
    ) -> (EvaluationFixture, Int) -> Void {
        { fixture, count in
            let (rule, keys, context) = (fixture[keyPath: rule], fixture[keyPath: keys], fixture.context)
            for _ in 0..<count { blackHole(rule.evaluate(context: context, flagKey: keys[opaqueZero])) }
        }
    }
}

/// An evaluator over the 100-flag definitions, the two rules compiled on their own, and a
/// context that goes through both conditions to the split.
final class EvaluationFixture: DictionaryReferenced {
    let evaluator: FlagEvaluator
    let targetingRule: TargetingRule
    let semVerRule: TargetingRule
    let context: EvaluationContext
    let reference: ReferenceDictionaries
    // One-element arrays, indexed with `opaqueZero` so the optimizer cannot hoist the work.
    let targetedKeys: [String]
    let semVerKeys: [String]
    let untargetedKeys: [String]

    init() throws {
        let source = ConfigSource(name: "<benchmark: 100 flags>", text: GeneratedDefinitions.hundredFlags())
        let loaded = DefinitionLoader().loadDefinitions(from: [source])
        guard !loaded.diagnostics.containsErrors else {
            throw BenchmarkFailure("the 100-flag definitions do not load: \(loaded.diagnostics)")
        }
        evaluator = FlagEvaluator(definitions: loaded.definitions, environment: "production")
        targetingRule = try TargetingRule(compiling: JSONValue(jsonText: GeneratedDefinitions.targetingRule))
        semVerRule = try TargetingRule(compiling: JSONValue(jsonText: GeneratedDefinitions.semVerRule))
        context = EvaluationContext(
            targetingKey: "user-42", attributes: ["country": "FR", "plan": "pro", "appVersion": "2.5.1"])
        reference = ReferenceDictionaries(
            Dictionary(uniqueKeysWithValues: loaded.definitions.keys.map { ($0, $0.count.isMultiple(of: 2)) }),
            key: GeneratedDefinitions.staticKey)
        func copy(_ key: String) -> [String] { [String(decoding: Array(key.utf8), as: UTF8.self)] }
        targetedKeys = copy(GeneratedDefinitions.targetedKey)
        semVerKeys = copy(GeneratedDefinitions.semVerKey)
        untargetedKeys = copy(GeneratedDefinitions.untargetedKey)
        try check()
    }

    /// The entries measure what they claim: the split is reached, the gate opens, the static
    /// flag is static.
    private func check() throws {
        let targeted = evaluator.details(forKeyNamed: targetedKeys[0], context: context)
        guard targeted.reason == .targetingMatch || targeted.reason == .split, targeted.variant != nil,
            targetingRule.evaluate(context: context, flagKey: targetedKeys[0]) != .null
        else {
            throw BenchmarkFailure("the targeted flag should resolve through its split, got \(targeted.reason)")
        }
        let gated = semVerRule.evaluate(context: context, flagKey: semVerKeys[0])
        guard gated == "on" else { throw BenchmarkFailure("the sem_ver rule should give \"on\", got \(gated)") }
        let untargeted = evaluator.details(forKeyNamed: untargetedKeys[0], context: context)
        guard untargeted.reason == .staticValue, untargeted.value == true else {
            throw BenchmarkFailure("the untargeted flag should be a static true, got \(untargeted.reason)")
        }
    }
}
