import Dispatch
import EnsignSupport
import Testing

@testable import Ensign
@testable import EnsignYAML

/// A targeting rule's YAML goes to exactly one compiler, whichever threads race for it, and
/// the first compiled result is the one every reader sees.
@Suite("Targeting handoff")
struct TargetingHandoffTests {
    static func rule(_ text: String) throws -> YAMLNode {
        try #require(try YAMLParser().documents(from: Array(text.utf8), file: "rule.yaml").first)
    }

    /// A string flag with the targeting rule `node`, not compiled yet.
    static func flag(_ key: String, targeting node: YAMLNode) -> FlagDefinition {
        FlagDefinition(
            key: key, kind: .flag, type: .string, defaultValue: nil, variants: [:], defaultVariant: nil,
            isEnabled: true, targetingNode: node, environmentValues: [:], allowedValues: nil, minimum: nil,
            maximum: nil, summary: nil, owner: nil, expires: nil, metadata: [:], position: .none)
    }

    @Test("Of four threads racing to claim a rule, exactly one gets it, in every round")
    func oneClaimant() throws {
        let node = try Self.rule("{ if: [{ var: beta }, \"on\", \"off\"] }")
        for _ in 0..<500 {
            let definition = Self.flag("race", targeting: node)
            let claims = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                if let claimed = definition.claimTargetingTree() {
                    #expect(claimed.location == node.location)
                    claims.withLock { $0 += 1 }
                }
            }
            #expect(claims.withLock { $0 } == 1)
            #expect(definition.claimTargetingTree() == nil)
        }
    }

    @Test("The first published result stands, and the definition reads it")
    func firstResultStands() throws {
        let node = try Self.rule("{ if: [{ var: beta }, \"on\", \"off\"] }")
        let definition = Self.flag("once", targeting: node)
        #expect(definition.hasTargeting)
        #expect(definition.targetingCompilation == nil)
        #expect(definition.targeting == nil, "nothing is read back before the rule is compiled")
        #expect(definition.targetingLocation == node.location)
        definition.publishTargeting(
            CompiledTargeting(rule: nil, problem: "first", written: .scalar(.string("a")), warnings: [], errors: []))
        definition.publishTargeting(
            CompiledTargeting(rule: nil, problem: "second", written: .scalar(.string("b")), warnings: [], errors: []))
        #expect(definition.targetingProblem == "first")
        #expect(definition.targeting?.value == .string("a"))
    }

    @Test("A rule with $ref anywhere waits for the evaluators")
    func evaluatorReferences() throws {
        let nested = try Self.rule("{ if: [{ and: [true, { $ref: staff }] }, \"on\", \"off\"] }")
        let plain = try Self.rule("{ if: [{ var: ref }, \"on\", \"off\"] }")
        let (usesNested, usesPlain, usesNone) = (
            TargetingHandoff(nested).usesEvaluator, TargetingHandoff(plain).usesEvaluator,
            TargetingHandoff(nil).usesEvaluator
        )
        #expect(usesNested)
        #expect(!usesPlain)
        #expect(!usesNone)
    }
}
