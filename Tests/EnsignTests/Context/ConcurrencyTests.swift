import EnsignTestSupport
import Testing

@testable import Ensign

/// Many readers, writers and observers at once. `scripts/test` runs this suite under the
/// thread sanitizer.
@Suite("Concurrent reads, writes and observers")
struct ConcurrencyTests {
    @Test("Readers always see valid values while writers and observers run")
    func readersWritersObservers() async throws {
        let context = try ContextFixtures.context()
        let child = context.makeChild(label: "child")
        let scoped = context.scope("beneficiaries")
        let delivered = Recorder<Int>()
        let tokens = [
            context.observe(.pageSize) { delivered.record($0) },
            child.observe(.pageSize) { _ in _ = child[.showPendingList] },
            context.observeAll { _ in },
        ]
        let invalidReads = Recorder<String>()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 0..<200 {
                        try? context.setOverride(.pageSize, to: 5 + (writer * 200 + round) % 90)
                        if round % 10 == 0 { try? context.setPreference(.darkMode, to: round % 20 == 0) }
                        if round % 25 == 0 { try? child.setOverride(.showPendingList, to: round % 50 == 0) }
                        if round % 40 == 0 {
                            context.setEvaluationContext(EvaluationContext(attributes: ["country": "FR"]))
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let size = context[.pageSize]
                        let snapshot = context.snapshot
                        let viaScope = scoped[FlagKey("pageSize", default: -1)]
                        if !(5...100).contains(size) || !(5...100).contains(snapshot[.pageSize])
                            || !(5...100).contains(viaScope) || !(5...100).contains(child[.pageSize])
                        {
                            invalidReads.record("\(size)")
                        }
                    }
                }
            }
        }
        #expect(invalidReads.values.isEmpty)
        #expect(delivered.count > 0)
        #expect(delivered.values.last == context[.pageSize])
        _ = tokens
    }
}
