import EnsignSupport
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

    /// A root's readers take its snapshot without a lock (``PublishedReference``): a read that
    /// starts after a write returned, on whatever thread, must still see that write or a later
    /// one, through the root, a prefix scope and a child that derives from it.
    @Test("A read never sees a value older than the last write it knew had returned")
    func readsAreNeverOlderThanAcknowledgedWrites() throws {
        let context = try AppContext(
            definitions: """
                version: 1
                flags:
                  race.counter: { type: int, default: 0 }
                """, environment: "test")
        let counter = FlagKey("race.counter", default: -1)
        let child = context.makeChild(label: "child")
        let scoped = context.scope("race")
        let writes = 3_000
        let acknowledged = PublishedReferenceTests.SharedCount()
        let finished = PublishedReferenceTests.SharedCount()
        let problems = LockedState<[String]>([])
        let threads = PublishedReferenceTests.TestThreads()
        for reader in 0..<3 {
            threads.start {
                var reads = 0
                while (finished.current == 0 || reads < 300) && threads.stopped.current == 0 {
                    let known = acknowledged.current
                    let seen = [context[counter], scoped[FlagKey("counter", default: -1)], child[counter]]
                    reads += 1
                    if let stale = seen.first(where: { $0 < known }) {
                        problems.withLock { $0.append("reader \(reader): read \(stale) after write \(known) returned") }
                        return
                    }
                }
            }
        }
        threads.start {
            for value in 1...writes where threads.stopped.current == 0 {
                try? context.setOverride(counter, to: value)
                acknowledged.set(value)
            }
            finished.set(1)
        }
        #expect(threads.finish(), "a writer or a reader made no progress within \(PublishedReferenceTests.watchdog)")
        #expect(problems.withLock { $0 } == [])
        #expect(acknowledged.current == writes)
        #expect(context[counter] == writes && child[counter] == writes)
    }
}
