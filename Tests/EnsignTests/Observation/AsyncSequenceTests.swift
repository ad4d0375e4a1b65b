import Foundation
import Synchronization
import Testing

@testable import Ensign

@Suite("Values as an async sequence")
struct AsyncSequenceTests {
    @Test("The sequence starts with the current value, then each change, and ignores other keys")
    func currentThenChanges() async throws {
        let context = try ContextFixtures.context()
        var iterator = context.values(for: .pageSize).makeAsyncIterator()
        #expect(await iterator.next() == 20)
        try context.setOverride(.showPendingList, to: true)  // another key: nothing arrives
        try context.setOverride(.pageSize, to: 30)
        #expect(await iterator.next() == 30)
        try context.setOverride(.pageSize, to: 30)  // unchanged: nothing arrives
        try context.setOverride(.pageSize, to: 31)
        #expect(await iterator.next() == 31)
    }

    @Test("A slow consumer gets the newest value")
    func newestWins() async throws {
        let context = try ContextFixtures.context()
        var iterator = context.values(for: .pageSize).makeAsyncIterator()
        #expect(await iterator.next() == 20)
        for size in 30...40 { try context.setOverride(.pageSize, to: size) }
        #expect(await iterator.next() == 40)
    }

    @Test("A change delivered while the first value is read does not leave the sequence on the older value")
    func changeOvertakingTheFirstValue() async throws {
        let context = try ContextFixtures.context()
        let written = Atomic(false)
        // Between reading 20 and yielding it, another thread sets 30 and its delivery runs: a
        // stream that then yielded the 20 it read would stay on 20 (it buffers the newest value).
        let stream = context.valueStream(for: FlagKey.pageSize, label: nil) {
            let writer = Thread {
                try? context.setOverride(.pageSize, to: 30)
                written.store(true, ordering: .releasing)
            }
            writer.start()
            while context[.pageSize] != 30 { sched_yield() }
            usleep(20_000)  // time for the writer's delivery to reach the sequence
        }
        while !written.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 30)
    }

    @Test("The sequence ends when the context is released")
    func endsWithContext() async throws {
        var context: AppContext? = try ContextFixtures.context()
        let stream = context!.values(for: .pageSize)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 20)
        context = nil
        #expect(await iterator.next() == nil)
    }

    @Test("Cancelling the consuming task ends the sequence and removes its observer")
    func cancellation() async throws {
        let context = try ContextFixtures.context()
        let (started, signalStarted) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var count = 0
            for await _ in context.values(for: .pageSize) {
                count += 1
                signalStarted.yield()
            }
            return count
        }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()  // the consumer is iterating
        task.cancel()
        #expect(await task.value >= 1)
        try context.setOverride(.pageSize, to: 30)
        #expect(context.store.observers.isEmpty)
    }
}
