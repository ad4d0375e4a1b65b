import EnsignSupport
import EnsignTestSupport
import Testing

@testable import Ensign

/// `observe(_:label:isolatedTo:)` and its batch forms, on an actor and on a serial executor.
/// `scripts/test` runs this suite under the thread sanitizer.
@Suite("Observers on an actor")
struct ActorObserverTests {
    @Test("Every change arrives isolated to the actor, in commit order, one call at a time, while four threads write")
    func commitOrderUnderConcurrentWriters() async throws {
        let context = Hopping.context()
        let collector = DeliveryCollector()
        let committed = Recorder<Int>()
        let tokens = [
            context.observe(Hopping.counter) { committed.record($0) },
            context.observe(Hopping.counter, isolatedTo: collector) { collector, value in
                collector.assertIsolated()
                collector.record(value)  // synchronous: the handler is isolated to the actor
            },
        ]
        await Hopping.onThreads(4) { writer in
            for index in 1...500 { try? context.setOverride(Hopping.counter, to: writer * 1_000_000 + index) }
        }
        #expect(committed.count == 2_000)
        #expect(
            await waitUntil("every change to arrive", timeout: Hopping.patience) { () async in
                await collector.values.count >= 2_000
            })
        #expect(await collector.values == committed.values)
        #expect(await collector.overlaps == 0)
        _ = tokens
    }

    @Test("An actor with a serial executor of its own runs the handler on that executor's thread")
    func serialExecutor() async throws {
        let executor = ThreadExecutor()
        defer { executor.stop() }
        let collector = ExecutorBoundCollector(executor: executor)
        let context = Hopping.context()
        let token = context.observe(Hopping.counter, isolatedTo: collector) { collector, value in
            collector.values.append(value)
            collector.threads.insert(ThreadIdentity.current)
        }
        await Hopping.onThreads(2) { writer in
            for index in 1...100 { try? context.setOverride(Hopping.counter, to: writer * 1_000 + index) }
        }
        #expect(
            await waitUntil("200 changes", timeout: Hopping.patience) { () async in await collector.values.count == 200
            })
        let thread = try #require(executor.thread)
        #expect(await collector.threads == [thread])
        for writer in 0..<2 {
            let own = await collector.values.filter { $0 / 1_000 == writer }
            #expect(own == Array(1...100).map { writer * 1_000 + $0 })
        }
        _ = token
    }

    @Test("A handler on an actor may write to the context, while other threads write")
    func handlerWrites() async throws {
        let context = Hopping.context()
        let collector = DeliveryCollector()
        let token = context.observe(Hopping.counter, isolatedTo: collector) { collector, value in
            collector.record(value)
            try? context.setOverride(Hopping.echo, to: value)
        }
        let last = await Hopping.writeCountersAwaitingTheirEcho(context)
        #expect(await collector.values.last == last)
        token.cancel()  // the handler holds the context
    }

    @Test("Batch observers on an actor get their transactions in order, with only their keys")
    func batchObservers() async throws {
        let context = Hopping.context()
        let collector = DeliveryCollector()
        let tokens = [
            context.observeAll(isolatedTo: collector) { collector, batch in collector.batches.append(batch) },
            context.observe(keysNamed: ["race.echo"], isolatedTo: collector) { collector, batch in
                collector.record(batch.keys == ["race.echo"] ? 1 : 0)
            },
        ]
        await Hopping.onThreads(2) { writer in
            for index in 1...200 {
                try? context.setOverride(writer == 0 ? Hopping.counter : Hopping.echo, to: index)
            }
        }
        #expect(
            await waitUntil("400 batches", timeout: Hopping.patience) { () async in await collector.batches.count == 400
            })
        #expect(
            await waitUntil("200 named batches", timeout: Hopping.patience) { () async in
                await collector.values.count == 200
            })
        let transactions = await collector.batches.map(\.transaction)
        #expect(transactions == transactions.sorted())
        #expect(await collector.values.allSatisfy { $0 == 1 })
        let runs = context.changeLog.flatMap(\.observerRuns).map(\.label)
        #expect(runs.contains("observer of all keys on DeliveryCollector"))
        _ = tokens
    }

    @Test("The context holds the actor weakly: once it is released, nothing more is delivered")
    func releasedActor() async throws {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        var collector: DeliveryCollector? = DeliveryCollector()
        weak let released = collector
        let token = context.observe(Hopping.counter, isolatedTo: collector!) { _, value in delivered.record(value) }
        collector = nil
        #expect(released == nil, "the observer kept the actor alive")
        try context.setOverride(Hopping.counter, to: 1)
        await Hopping.mainActorBarrier()
        #expect(delivered.values.isEmpty)
        _ = token
    }
}
