import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Cancelling observers that run on an actor, and ending their context: after `cancel()`
/// returns, no call starts, queued changes included. `scripts/test` runs this suite under the
/// thread sanitizer.
@Suite("Cancelling observers on an actor")
@MainActor
struct HoppedCancellationTests {
    /// Holds a token for a handler that cancels it.
    @MainActor
    final class TokenBox {
        var token: ObservationToken?
    }

    @Test("A handler that cancels its token is not called again, for the changes already queued neither")
    func cancelFromInside() async throws {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        let box = TokenBox()
        box.token = context.observe(Hopping.counter, on: .mainActor) { value in
            delivered.record(value)
            box.token?.cancel()
        }
        // The test holds the main actor: all ten are queued before the first call.
        for value in 1...10 { try context.setOverride(Hopping.counter, to: value) }
        #expect(await waitUntil("the first call", timeout: Hopping.patience) { () async in delivered.count == 1 })
        try context.setOverride(Hopping.counter, to: 11)
        await Hopping.mainActorBarrier()
        #expect(delivered.values == [1])
        #expect(box.token?.isCancelled == true)
        #expect(context.store.observers.counts.observers == 0)
    }

    @Test("cancel() drops the changes queued for the main actor")
    func cancelDropsQueued() async throws {
        let (context, delivered, token) = Hopping.counterRecordedOnMainActor()
        for value in 1...10 { try context.setOverride(Hopping.counter, to: value) }
        token.cancel()
        await Hopping.mainActorBarrier()
        #expect(delivered.values.isEmpty)
    }

    @Test("cancel() from another thread, racing deliveries on the main actor: no call starts after it returns")
    func cancelFromAnotherThreadOnMainActor() async throws {
        for round in 0..<50 {
            let context = Hopping.context()
            let probe = CancellationProbe()
            let token = context.observe(Hopping.counter, on: .mainActor) { value in probe.handlerRan(value) }
            await race(context: context, token: token, probe: probe, cancelAfter: 1 + round % 5)
            await Hopping.mainActorBarrier()
            #expect(probe.violations.values == [], "round \(round)")
            #expect(probe.calls.count > 0, "round \(round): the handler never ran, so nothing raced the cancel")
        }
    }

    @Test("cancel() from another thread, racing deliveries on an actor: no call starts after it returns")
    func cancelFromAnotherThreadOnActor() async throws {
        for round in 0..<50 {
            let context = Hopping.context()
            let probe = CancellationProbe()
            let collector = DeliveryCollector()
            let token = context.observe(Hopping.counter, isolatedTo: collector) { collector, value in
                collector.record(value)
                probe.handlerRan(value)
            }
            await race(context: context, token: token, probe: probe, cancelAfter: 1 + round % 5)
            // Whatever was queued ran or was dropped; a call on the actor now would be after it.
            _ = await collector.values
            #expect(probe.violations.values == [], "round \(round)")
            #expect(probe.calls.count > 0, "round \(round): the handler never ran, so nothing raced the cancel")
        }
    }

    /// One thread writes while another cancels once the handler has run `cancelAfter` times.
    private func race(context: AppContext, token: ObservationToken, probe: CancellationProbe, cancelAfter: Int) async {
        let stopWriting = SharedFlag()
        await Hopping.onThreads(2) { role in
            if role == 0 {
                var value = 1
                while !stopWriting.isSet {
                    // At most a thousand changes ahead of the handler until the cancel: a
                    // handler starved of threads by the rest of the suite meets a backlog, not
                    // an unbounded heap of queued changes.
                    if !probe.hasCancelReturned, value - probe.calls.count > 1_000 {
                        Thread.sleep(forTimeInterval: 0.000_1)
                        continue
                    }
                    try? context.setOverride(Hopping.counter, to: value)
                    value += 1
                }
            } else {
                _ = waitUntil("the handler to run", timeout: Hopping.patience) { probe.calls.count >= cancelAfter }
                token.cancel()
                probe.cancelReturned()
                // Keep writing a little after the cancel, so queued and new changes meet it.
                let writesAtCancel = context[Hopping.counter]
                _ = waitUntil("more writes", timeout: Hopping.patience) {
                    context[Hopping.counter] > writesAtCancel + 50
                }
                stopWriting.set()
            }
        }
    }

    @Test("Releasing the context drops the changes queued for the main actor, and the observer does not keep it")
    func releasedContext() async throws {
        var context: AppContext? = Hopping.context()
        weak let store = context!.store
        let delivered = Recorder<Int>()
        let token = context!.observe(Hopping.counter, on: .mainActor) { delivered.record($0) }
        for value in 1...3 { try context!.setOverride(Hopping.counter, to: value) }
        context = nil
        #expect(store == nil, "the observer kept the context alive")
        await Hopping.mainActorBarrier()
        #expect(delivered.values.isEmpty)
        token.cancel()  // after the context: does nothing, and does not crash
    }

    @Test("Releasing a child context ends its observers on the main actor; the parent's go on")
    func releasedChild() async throws {
        let context = Hopping.context()
        var child: AppContext? = context.makeChild(label: "screen")
        let childDelivered = Recorder<Int>()
        let parentDelivered = Recorder<Int>()
        let tokens = [
            child!.observe(Hopping.counter, on: .mainActor) { childDelivered.record($0) },
            context.observe(Hopping.counter, on: .mainActor) { parentDelivered.record($0) },
        ]
        try context.setOverride(Hopping.counter, to: 1)
        child = nil
        try context.setOverride(Hopping.counter, to: 2)
        #expect(
            await waitUntil("the parent's two changes", timeout: Hopping.patience) { () async in
                parentDelivered.count == 2
            })
        await Hopping.mainActorBarrier()
        #expect(childDelivered.values.isEmpty)
        #expect(parentDelivered.values == [1, 2])
        _ = tokens
    }

    @Test("Releasing the token cancels like cancel()")
    func releasedToken() async throws {
        let context = Hopping.context()
        let delivered = Recorder<Int>()
        var token: ObservationToken? = context.observe(Hopping.counter, on: .mainActor) { delivered.record($0) }
        try context.setOverride(Hopping.counter, to: 1)
        _ = token
        token = nil
        await Hopping.mainActorBarrier()
        #expect(delivered.values.isEmpty)
        #expect(context.store.observers.counts == (0, 0))
    }
}

/// What a cancellation race saw: the handler's calls, and any call that started after
/// `cancel()` returned or was still running when it did.
final class CancellationProbe: Sendable {
    let calls = Recorder<Int>()
    let violations = Recorder<String>()
    private let isCancelled = SharedFlag()
    private let isRunning = SharedFlag()

    /// The handler's body: notes a call that starts too late, and runs a while, so a cancel
    /// from another thread often meets it running.
    func handlerRan(_ value: Int) {
        if isCancelled.isSet { violations.record("call with \(value) started after cancel() returned") }
        isRunning.set()
        calls.record(value)
        var spin = 0
        for index in 0..<2_000 { spin &+= index }
        precondition(spin > 0)
        isRunning.set(false)
    }

    /// Whether ``cancelReturned()`` has been called.
    var hasCancelReturned: Bool { isCancelled.isSet }

    /// Called just after `cancel()` returns.
    func cancelReturned() {
        if isRunning.isSet { violations.record("cancel() returned while a call was running") }
        isCancelled.set()
    }
}
