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
