import Ensign
import EnsignJSON
import EnsignTestSupport
import Testing

@Suite("ensign stats against a running app")
struct StatsCommandTests {
    @Test("stats shows each key's evaluations by variant and reason, then the keys never evaluated")
    func table() throws {
        let app = try LiveApp()
        app.context.countEvaluations()
        for _ in 0..<7 { _ = app.context[.showPendingList] }
        let result = try app.run(["stats"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("KEY") == true)
        let row = try #require(lines.first { $0.hasPrefix("beneficiaries.showPendingList") })
        #expect(row.split(separator: " ").prefix(5) == ["beneficiaries.showPendingList", "7", "-", "STATIC", "7"])
        #expect(lines.contains { $0.hasPrefix("7 evaluations since ") })
        #expect(lines.contains { $0.hasPrefix("never evaluated (") && $0.contains("beneficiaries.pageSize") })
    }

    @Test("stats KEY --json prints the counts of the keys asked for, exactly")
    func json() throws {
        let app = try LiveApp()
        app.context.countEvaluations()
        for _ in 0..<3 { _ = app.context[.showPendingList] }
        let result = try app.run(["stats", "beneficiaries.showPendingList", "beneficiaries.pageSize", "--json"])
        #expect(result.status == 0)
        let report = try JSONValue(jsonText: result.output)
        #expect(report["totalEvaluations"] == 3)
        let keys = try #require(report["keys"]?.arrayValue)
        #expect(keys.map { $0["key"] } == ["beneficiaries.showPendingList", "beneficiaries.pageSize"])
        #expect(keys.map { $0["evaluations"] } == [3, 0])
        #expect(keys.first?["outcomes"] == [["reason": "STATIC", "count": 3]])
        #expect(report["notEvaluated"] == ["beneficiaries.pageSize"])
    }

    @Test("With counting off in the app, stats fails and says how to turn it on")
    func countingOff() throws {
        let app = try LiveApp()
        let result = try app.run(["stats"])
        #expect(result.status == 1)
        #expect(result.errors.contains("context.countEvaluations()"))
    }
}
