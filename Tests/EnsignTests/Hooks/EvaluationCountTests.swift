import Dispatch
import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("Evaluation counts")
struct EvaluationCountTests {
    typealias Outcome = AppContext.EvaluationCounts.Outcome

    @Test("Counts are exact by key, variant and reason, across the root, its children and scopes")
    func exactCounts() throws {
        let context = try ContextFixtures.context()
        context.countEvaluations()
        let france = context.makeChild(label: "request", evaluationContext: ["country": "FR"])
        for _ in 0..<5 { _ = context[.newFlow] }
        for _ in 0..<3 { _ = france[.newFlow] }
        _ = context.scope("transfers")[FlagKey("newFlow", default: false)]
        for _ in 0..<2 { _ = context.details(for: .undefinedFlag) }
        _ = context.value(forKeyNamed: "beneficiaries.showPendingList")

        let counts = try #require(context.evaluationCounts)
        let newFlow = try #require(counts["transfers.newFlow"])
        #expect(newFlow.evaluations == 9)
        #expect(
            newFlow.outcomes == [
                Outcome(variant: "off", reason: .defaultValue): 6, Outcome(variant: "on", reason: .targetingMatch): 3,
            ])
        #expect(newFlow.byVariant == ["off": 6, "on": 3])
        #expect(newFlow.byReason == [.defaultValue: 6, .targetingMatch: 3])
        #expect(counts["beneficiaries.showPendingList"]?.evaluations == 1)
        #expect(counts.undefinedKeyEvaluations == 2)
        #expect(counts.keys["nowhere.defined"] == nil, "undefined names are not kept")
        #expect(counts.totalEvaluations == 12)
        #expect(newFlow.lastEvaluated >= counts.since)
        #expect(context.evaluatedKeys == ["transfers.newFlow", "beneficiaries.showPendingList"])
        // A child reads the same counts: there is one counter per tree.
        #expect(france.evaluationCounts == counts)
    }

    @Test("Beside other hooks (the full hook run) the counts are the same as alone (the counter's short path)")
    func countsBesideOtherHooks() throws {
        var seen: [AppContext.EvaluationCounts.KeyCounts?] = []
        for withOtherHook in [false, true] {
            let context = try ContextFixtures.context()
            context.countEvaluations()
            if withOtherHook { context.makeChild(label: "request").addHook(NothingHook()) }
            let france = context.makeChild(label: "request", evaluationContext: ["country": "FR"])
            if withOtherHook { france.addHook(NothingHook()) }
            for _ in 0..<2 { _ = context[.newFlow] }
            _ = france.details(for: .newFlow)
            _ = france.details(forKeyNamed: "transfers.newFlow")
            seen.append(context.evaluationCounts?["transfers.newFlow"])
        }
        #expect(
            seen[0]?.outcomes == [
                Outcome(variant: "off", reason: .defaultValue): 2, Outcome(variant: "on", reason: .targetingMatch): 2,
            ])
        #expect(seen[0]?.outcomes == seen[1]?.outcomes)
    }

    @Test("Off until asked: no counts and the read path's switch stays off; on once, whatever is called again")
    func optIn() throws {
        let context = try ContextFixtures.context()
        _ = context[.newFlow]
        #expect(context.evaluationCounts == nil)
        #expect(context.evaluatedKeys == nil)
        #expect(!context.hookSwitch.isOn)
        let child = context.makeChild(label: "request")
        child.countEvaluations()
        context.countEvaluations()
        #expect(context.hookSwitch.registered.load(ordering: .relaxed) == 1, "one counter, on the root")
        context.removeAllHooks()
        _ = context[.newFlow]
        #expect(context.evaluationCounts?["transfers.newFlow"]?.evaluations == 1, "removing hooks leaves counting on")
    }

    @Test("Reads from a held snapshot are not evaluations through the context, and are not counted")
    func snapshotsAreNotCounted() throws {
        let context = try ContextFixtures.context()
        context.countEvaluations()
        let snapshot = context.untrackedSnapshot
        _ = snapshot[.newFlow]
        _ = snapshot.details(forKeyNamed: "transfers.newFlow")
        #expect(context.evaluationCounts?.totalEvaluations == 0)
    }

    @Test("Threads read while others take the counts: the counts only grow, and end exact")
    func countsUnderRaces() throws {
        let context = try ContextFixtures.context()
        context.countEvaluations()
        let child = context.makeChild(label: "request", evaluationContext: ["country": "BE"])
        let (readers, reads) = (4, 5_000)
        DispatchQueue.concurrentPerform(iterations: readers + 1) { worker in
            if worker == readers {
                var last = 0
                for _ in 0..<200 {
                    let total = context.evaluationCounts?.totalEvaluations ?? -1
                    #expect(total >= last)
                    last = total
                }
            } else {
                for _ in 0..<reads { _ = (worker % 2 == 0 ? context : child)[.newFlow] }
            }
        }
        let newFlow = try #require(context.evaluationCounts?["transfers.newFlow"])
        #expect(newFlow.evaluations == readers * reads)
        #expect(newFlow.byVariant == ["off": readers / 2 * reads, "on": readers / 2 * reads])
    }
}

/// A hook with no stage of its own, to make reads take the full hook run.
private struct NothingHook: EvaluationHook {}
