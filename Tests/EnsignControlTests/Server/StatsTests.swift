import Ensign
import EnsignTestSupport
import Testing

@testable import EnsignControl

@Suite("Control server: evaluation stats")
struct StatsTests {
    @Test("stats answers the app's counts exactly, by variant and reason, and names the keys never evaluated")
    func countsOverTheSocket() throws {
        let context = try ControlFixtures.context()
        context.countEvaluations()
        let harness = try ServerHarness(context: context)
        for _ in 0..<4 { _ = context[.showPendingList] }
        _ = context[.pageSize]
        _ = context.details(forKeyNamed: "nowhere.defined")
        let client = try harness.client()
        let report = try client.stats()
        #expect(report.totalEvaluations == 6)
        #expect(report.undefinedKeyEvaluations == 1)
        #expect(report.keys.map(\.key) == ["beneficiaries.pageSize", "beneficiaries.showPendingList"])
        let showPending = try #require(report.keys.last)
        #expect(showPending.evaluations == 4)
        #expect(showPending.outcomes == [.init(variant: nil, reason: "STATIC", count: 4)])
        #expect(showPending.lastEvaluated != nil)
        #expect(report.notEvaluated.contains("beneficiaries.sortOrder"))
        #expect(!report.notEvaluated.contains("beneficiaries.pageSize"))
        #expect(report.since == context.evaluationCounts?.since.description)
    }

    @Test("The tools' own reads (list, get, explain) are not the app's evaluations and are not counted")
    func toolReadsAreNotCounted() throws {
        let context = try ControlFixtures.context()
        context.countEvaluations()
        let harness = try ServerHarness(context: context)
        let client = try harness.client()
        _ = try client.list()
        _ = try client.get("beneficiaries.pageSize")
        _ = try client.explain("beneficiaries.pageSize")
        #expect(try client.stats().totalEvaluations == 0)
        #expect(context.evaluationCounts?.totalEvaluations == 0)
    }

    @Test("stats for named keys: a key never evaluated reads 0, an undefined one is NOT_FOUND")
    func namedKeys() throws {
        let context = try ControlFixtures.context()
        context.countEvaluations()
        let harness = try ServerHarness(context: context)
        _ = context[.pageSize]
        let client = try harness.client()
        let report = try client.stats(keys: ["beneficiaries.sortOrder", "beneficiaries.pageSize"])
        #expect(report.keys.map(\.key) == ["beneficiaries.sortOrder", "beneficiaries.pageSize"])
        #expect(report.keys.map(\.evaluations) == [0, 1])
        #expect(report.keys.first?.lastEvaluated == nil)
        #expect(report.notEvaluated == ["beneficiaries.sortOrder"])
        expectRefusal(.notFound, containing: "did you mean 'beneficiaries.pageSize'?") {
            try client.stats(keys: ["beneficiaries.pagesize"])
        }
    }

    @Test("With counting off, stats is UNAVAILABLE and says how to turn it on")
    func countingOff() throws {
        let harness = try ServerHarness()
        expectRefusal(.unavailable, containing: "context.countEvaluations()") { try harness.client().stats() }
        let reply = try harness.raw().request(#"{"id":3,"op":"stats"}"#)
        #expect(reply?["error"]?["code"] == "UNAVAILABLE")
    }
}
