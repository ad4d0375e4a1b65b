import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("The change log")
struct ChangeLogTests {
    @Test("Each transaction records its cause, old and new values, and the observers that ran")
    func transactionContent() throws {
        let context = try ContextFixtures.context()
        let token = context.observe(.pageSize, label: "beneficiaries list") { _ in }
        try context.setOverride(.pageSize, to: 30, actor: "cli")
        let last = try #require(context.changeLog.last)
        #expect(last.cause == .override(actor: "cli"))
        #expect(
            last.changes == [
                ChangeBatch.Change(
                    key: "beneficiaries.pageSize", oldValue: 20, newValue: 30,
                    source: last.changes.first!.source)
            ])
        #expect(last.changes.first?.source.layer == .override)
        #expect(last.observerRuns.map(\.label) == ["beneficiaries list"])
        #expect(last.observerRuns.first?.keys == ["beneficiaries.pageSize"])
        #expect(context.changeLog.first?.cause == .load)
        _ = token
    }

    @Test("Slow observers are flagged")
    func slowObserver() throws {
        let context = try ContextFixtures.context()
        let token = context.observe(.pageSize, label: "slow") { _ in
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .milliseconds(20) {}
        }
        try context.setOverride(.pageSize, to: 30)
        #expect(context.changeLog.last?.observerRuns.first?.isSlow == true)
        _ = token
    }

    @Test("The log keeps only the most recent transactions")
    func bounded() throws {
        let context = try ContextFixtures.context()
        let token = context.observe(.pageSize, label: "counter") { _ in }
        for round in 0..<300 { try context.setOverride(.pageSize, to: 30 + round % 2) }
        let log = context.changeLog
        #expect(log.count == 256)
        #expect(log.first?.cause == .override(actor: "code"))
        #expect(log.last?.changes.first?.newValue == 31)
        // Oldest first, and observer runs still reach the right entry after the ring wrapped.
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.id + 1 == $1.id })
        #expect(log.last?.observerRuns.map(\.label) == ["counter"])
        _ = token
    }

    @Test("A failed reload is logged with its diagnostics and changes nothing")
    func failedReloadLogged() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  a: { default: 1 }\n")
        let context = try AppContext(configuration: AppContextConfiguration(definitionsDirectory: directory.path))
        let key = FlagKey("a", default: 0)
        try directory.write("app.yaml", "flags:\n  a: { default: oops, type: int }\n")
        let found = context.reload()
        #expect(found.containsErrors)
        #expect(context[key] == 1)
        #expect(context.status.isDegraded)
        #expect(context.status.diagnostics.first?.location.line == 2)
        guard case .failedReload = context.changeLog.last?.cause else {
            Issue.record("expected a failed reload in the log")
            return
        }
        try directory.write("app.yaml", "flags:\n  a: { default: 2 }\n")
        #expect(context.reload().isEmpty)
        #expect(context[key] == 2)
        #expect(!context.status.isDegraded)
    }
}
