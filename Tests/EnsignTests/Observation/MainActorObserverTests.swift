import EnsignTestSupport
import Testing

@testable import Ensign

/// `observe(_:label:on: .mainActor)` and its batch forms. `scripts/test` runs this suite under
/// the thread sanitizer.
@Suite("Observers on the main actor")
@MainActor
struct MainActorObserverTests {
    @Test("Every change arrives on the main actor, in commit order, while four threads write")
    func commitOrderUnderConcurrentWriters() async throws {
        let context = Hopping.context()
        // A synchronous observer runs in commit order on the writers' threads: the reference.
        let committed = Recorder<Int>()
        let delivered = Recorder<Int>()
        // Main-actor state, changed without a hop: the compiler checks the handler's isolation,
        // `assertIsolated` the executor it runs on. (On Linux, once `dispatchMain()` has run, the
        // main queue runs on one worker thread at a time, not on the main thread.)
        let screen = ScreenState()
        let running = SharedFlag()
        let overlaps = Recorder<Int>()
        let tokens = [
            context.observe(Hopping.counter) { committed.record($0) },
            context.observe(Hopping.counter, on: .mainActor) { value in
                MainActor.assertIsolated()
                if running.isSet { overlaps.record(value) }
                running.set()
                screen.values.append(value)
                delivered.record(value)
                running.set(false)
            },
        ]
        let failures = Recorder<String>()
        await Hopping.onThreads(4) { writer in
            for index in 1...500 {
                do { try context.setOverride(Hopping.counter, to: writer * 1_000_000 + index) } catch {
                    failures.record("\(error)")
                }
            }
        }
        #expect(failures.values.isEmpty)
        #expect(committed.count == 2_000)
        #expect(
            await waitUntil("every change to arrive", timeout: Hopping.patience) { () async in delivered.count >= 2_000
            })
        // No coalescing: every committed value, in commit order, none twice.
        #expect(delivered.values == committed.values)
        #expect(overlaps.values.isEmpty)
        #expect(screen.values == committed.values)
        for writer in 0..<4 {
            let own = delivered.values.filter { $0 / 1_000_000 == writer }
            #expect(own == Array(1...500).map { writer * 1_000_000 + $0 }, "writer \(writer)'s changes out of order")
        }
        _ = tokens
    }

    @Test("A write returns before the handler runs: the handler runs once the main actor is free")
    func deliveredLater() async throws {
        let (context, delivered, token) = Hopping.counterRecordedOnMainActor()
        for value in 1...3 { try context.setOverride(Hopping.counter, to: value) }
        // This test holds the main actor, so nothing has run yet.
        #expect(delivered.values.isEmpty)
        #expect(await waitUntil("three changes", timeout: Hopping.patience) { () async in delivered.count == 3 })
        #expect(delivered.values == [1, 2, 3])
        _ = token
    }

    @Test("A write that leaves the value as it was, or changes another key, delivers nothing")
    func onlyChanges() async throws {
        let (context, delivered, token) = Hopping.counterRecordedOnMainActor()
        try context.setOverride(Hopping.counter, to: 0)
        try context.setOverride(Hopping.echo, to: 5)
        try context.setOverride(Hopping.counter, to: 7)
        #expect(await waitUntil("the one change", timeout: Hopping.patience) { () async in delivered.count == 1 })
        await Hopping.mainActorBarrier()
        #expect(delivered.values == [7])
        _ = token
    }

    @Test("The change log records the run on the main actor once, under its label or a default one")
    func changeLogRecordsTheRun() async throws {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        let tokens = [
            context.observe(Hopping.counter, label: "banner", on: .mainActor) { delivered.record($0) },
            context.observe(Hopping.counter, on: .mainActor) { delivered.record($0) },
        ]
        try context.setOverride(Hopping.counter, to: 3)
        #expect(await waitUntil("both runs", timeout: Hopping.patience) { () async in delivered.count == 2 })
        let runs = context.changeLog.last?.observerRuns ?? []
        #expect(runs.map(\.label).sorted() == ["banner", "observer of race.counter on the main actor"])
        #expect(runs.allSatisfy { $0.keys == ["race.counter"] })
        _ = tokens
    }

    @Test("A handler that writes to the context, its own key included, does not deadlock and keeps the order")
    func handlerWrites() async throws {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        let token = context.observe(Hopping.counter, on: .mainActor) { value in
            delivered.record(value)
            if value < 10 { try? context.setOverride(Hopping.counter, to: value + 1) }
        }
        try context.setOverride(Hopping.counter, to: 1)
        #expect(
            await waitUntil("the chain to reach 10", timeout: Hopping.patience) { () async in delivered.count == 10 })
        #expect(delivered.values == Array(1...10))
        #expect(context[Hopping.counter] == 10)
        token.cancel()  // the handler holds the context
    }

    @Test("A handler that writes while other threads write and deliver: no deadlock, the last write wins")
    func handlerWritesDuringConcurrentDelivery() async throws {
        let context = Hopping.context()
        let echoes = Recorder<Int>()
        let tokens = [
            context.observe(Hopping.counter, on: .mainActor) { value in
                try? context.setOverride(Hopping.echo, to: value)
            },
            // A synchronous observer on the writers' threads too, so the main actor's writes
            // meet rounds being delivered elsewhere.
            context.observe(Hopping.counter) { _ in _ = context[Hopping.echo] },
            context.observe(Hopping.echo) { echoes.record($0) },
        ]
        let last = await Hopping.writeCountersAwaitingTheirEcho(context)
        // The handler's writes follow the deliveries, which follow the commits: the echo ends
        // on the last value committed, not an older one delivered late.
        await Hopping.mainActorBarrier()
        #expect(context[Hopping.echo] == last)
        #expect(echoes.values.last == last)
        for token in tokens { token.cancel() }
    }

    @Test("Batch observers on the main actor get one batch per transaction, in order, with only their keys")
    func batchObservers() async throws {
        let context = Hopping.context()
        let all = Recorder<ChangeBatch>()
        let named = Recorder<ChangeBatch>()
        let tokens = [
            context.observeAll(on: .mainActor) { batch in
                MainActor.assertIsolated()
                all.record(batch)
            },
            context.observe(keysNamed: ["race.echo"], on: .mainActor) { named.record($0) },
        ]
        await Hopping.onThreads(2) { writer in
            for index in 1...200 {
                if writer == 0 {
                    try? context.setOverride(Hopping.counter, to: index)
                } else {
                    try? context.batch { try $0.setOverride(Hopping.echo, to: index) }
                }
            }
        }
        #expect(
            await waitUntil("400 batches and 200 named", timeout: Hopping.patience) { () async in
                all.count == 400 && named.count == 200
            })
        let transactions = all.values.map(\.transaction)
        #expect(transactions == transactions.sorted())
        #expect(Set(transactions).count == 400)
        #expect(named.values.allSatisfy { $0.keys == ["race.echo"] })
        #expect(named.values.map { $0.changes[0].newValue } == (1...200).map { JSONValue.int($0) })
        _ = tokens
    }

    @Test("A child's observer on the main actor hears the parent's changes it does not mask")
    func childContext() async throws {
        let context = Hopping.context()
        let child = try context.makeChild(label: "screen") { try $0.setOverride(Hopping.echo, to: 99) }
        let counters = Recorder<Int>()
        let echoes = Recorder<Int>()
        let tokens = [
            child.observe(Hopping.counter, on: .mainActor) { counters.record($0) },
            child.observe(Hopping.echo, on: .mainActor) { echoes.record($0) },
        ]
        try context.setOverride(Hopping.echo, to: 1)  // masked by the child's own override
        try context.setOverride(Hopping.counter, to: 2)
        #expect(await waitUntil("the counter", timeout: Hopping.patience) { () async in counters.count == 1 })
        await Hopping.mainActorBarrier()
        #expect(counters.values == [2])
        #expect(echoes.values.isEmpty)
        _ = tokens
    }
}

/// State a main-actor view model would keep.
@MainActor
final class ScreenState {
    var values: [Int] = []
}
