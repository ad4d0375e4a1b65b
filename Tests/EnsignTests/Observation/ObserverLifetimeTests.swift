import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Testing

@testable import Ensign

@Suite("What observers leave behind when they end")
struct ObserverLifetimeTests {
    @Test("An ended values(for:) stream leaves nothing registered, dropped unread or cancelled while read")
    func endedStreamsUnregister() async throws {
        let context = try ContextFixtures.context()
        for _ in 0..<2_000 { _ = context.values(for: .pageSize) }
        for _ in 0..<200 {
            let stream = context.values(for: .pageSize)
            let task = Task {
                for await _ in stream {}
            }
            task.cancel()
            await task.value
        }
        #expect(context.store.observers.counts == (0, 0))
    }

    @Test("A running stream holds one registration, which ends it when the context goes away")
    func runningStreamHoldsOneRegistration() async throws {
        var context: AppContext? = try ContextFixtures.context()
        var iterator = context!.values(for: .pageSize).makeAsyncIterator()
        #expect(await iterator.next() == 20)
        #expect(context!.store.observers.counts == (1, 1))
        context = nil
        #expect(await iterator.next() == nil)
    }

    @Test("Ended streams leave no heap behind (measured in a process of its own)", .blocksItsThread)
    func endedStreamsFreeTheirMemory() throws {
        // Before the fix each ended stream kept its end handler: about 340 bytes.
        for scenario in ["dropped-streams", "cancelled-streams"] {
            let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: scenario, count: 20_000)
            #expect(retained < 16, "\(scenario): \(retained) bytes per stream stayed behind")
        }
    }

    @Test("Writes, reloads and churned streams on several threads leave no heap behind after warm-up", .blocksItsThread)
    func sustainedWorkFreesItsMemory() throws {
        // The heap moves by some tens of kilobytes from run to run: under 8 bytes per change is
        // flat, while a leak the size of one key change record per change is over 100.
        let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: "concurrent", count: 20_000)
        #expect(retained < 8, "\(retained) bytes per change stayed behind")
    }

    @Test("The delivery queue lets go of a round once it has run, while later rounds still wait")
    func deliveredRoundsAreReleased() {
        let queue = DeliveryQueue()
        let payload: WeakPayload
        do {
            let held = Payload()
            payload = WeakPayload(object: held)
            queue.enqueue { withExtendedLifetime(held) {} }
        }
        let releasedBeforeNextRound = LockedState<Bool?>(nil)
        queue.enqueue { releasedBeforeNextRound.withLock { $0 = payload.object == nil } }
        queue.deliverPending()
        #expect(releasedBeforeNextRound.withLock { $0 } == true)
        #expect(queue.storedRounds.held == 0)
    }

    @Test("A queue kept busy by writers does not keep the slots of rounds it has delivered")
    func busyQueueReusesSlots() {
        let queue = DeliveryQueue()
        let slots = Recorder<Int>()
        // Each round queues the next one, so the queue never drains until the last.
        @Sendable func round(_ remaining: Int) {
            slots.record(queue.storedRounds.slots)
            if remaining > 0 { queue.enqueue { round(remaining - 1) } }
        }
        queue.enqueue { round(10_000) }
        queue.deliverPending()
        // The queue compacts once half its slots have run: a bounded array, not one slot per round.
        #expect((slots.values.max() ?? .max) <= 64)
        #expect(queue.storedRounds.slots == 0)
    }
}

private final class Payload: Sendable {}

/// A weak reference to a payload, so a test can see when it is freed.
private struct WeakPayload: Sendable {
    weak var object: Payload?
}
