import Ensign
import EnsignJSON
import EnsignTestSupport
import Testing

@Suite("ensign debt against a running app")
struct DebtLiveTests {
    @Test("--socket adds the keys the running app never evaluated since it started")
    func neverEvaluated() throws {
        let app = try LiveApp()
        app.context.countEvaluations()
        _ = app.context[.showPendingList]
        let directory = try TemporaryDirectory()
        _ = try directory.write("flags/beneficiaries.yaml", BeneficiariesFixture.definitions)
        let result = try app.run(["debt", "--flags", directory.path + "/flags", "--json"])
        #expect(result.status == 1, "\(result.errors)")
        let report = try JSONValue(jsonText: result.output)
        let findings = try #require(report["findings"]?.arrayValue)
        let never = findings.filter { $0["kind"] == "neverEvaluated" }.compactMap { $0["key"]?.stringValue }
        #expect(never.sorted() == ["beneficiaries.pageSize", "beneficiaries.sortOrder"])
    }

    @Test("With counting off in the app, debt --socket fails and says how to turn it on")
    func countingOff() throws {
        let app = try LiveApp()
        let directory = try TemporaryDirectory()
        _ = try directory.write("flags/beneficiaries.yaml", BeneficiariesFixture.definitions)
        let result = try app.run(["debt", "--flags", directory.path + "/flags"])
        #expect(result.status != 0)
        #expect(result.errors.contains("context.countEvaluations()"))
    }
}
