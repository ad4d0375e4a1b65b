import Ensign
import EnsignSupport

/// Carries change events from the app's threads to the server thread without ever making
/// the app wait for a client.
///
/// The app's observer (``publish(_:)``) runs on whichever thread committed the change: it
/// appends the change to each watching connection's ``WatchOutbox`` under that outbox's
/// lock and signals the server thread, which encodes and sends the events. Nothing in this
/// path touches a socket.
final class WatchHub: Sendable {
    private let outboxes = LockedState<[WatchOutbox]>([])
    private let wake: WakeSignal

    init(wake: WakeSignal) {
        self.wake = wake
    }

    /// Adds an outbox; returns whether it is the first (the caller starts observing).
    func add(_ outbox: WatchOutbox) -> Bool {
        outboxes.withLock { outboxes in
            outboxes.append(outbox)
            return outboxes.count == 1
        }
    }

    /// Removes an outbox; returns whether none are left (the caller stops observing).
    func remove(_ outbox: WatchOutbox) -> Bool {
        outboxes.withLock { outboxes in
            outboxes.removeAll { $0 === outbox }
            return outboxes.isEmpty
        }
    }

    /// Queues `batch` for every watch that asked for one of its keys. Runs on the app's
    /// committing thread: O(watchers), no I/O, never blocks on a client.
    func publish(_ batch: ChangeBatch) {
        let targets = outboxes.withLock { $0 }
        guard !targets.isEmpty else { return }
        let time = WallClockTime.now()
        var offered = false
        for outbox in targets where outbox.offer(batch, time: time) {
            offered = true
        }
        if offered { wake.signal() }
    }
}

/// The bounded queue of change events for one watching connection.
///
/// When the client reads too slowly and the queue is full, the oldest events are dropped and
/// counted; the client gets one `dropped` event with the count before the events that
/// remain. The newest events are always kept, so a client that catches up learns every key's
/// latest value, and exactly how many changes it missed before them.
final class WatchOutbox: Sendable {
    enum Item: Sendable {
        case change(ChangeBatch, WallClockTime)
        case dropped(Int)
    }

    private struct State {
        var changes: [(ChangeBatch, WallClockTime)] = []
        var head = 0
        /// Changes dropped before `head` since the client was last told.
        var dropped = 0

        var count: Int { changes.count - head }
    }

    /// The `id` of the watch request, repeated in each event.
    let watchID: ControlRequestID
    /// The full keys watched; `nil` for every key.
    let keys: Set<String>?
    let capacity: Int
    private let state = LockedState(State())

    init(watchID: ControlRequestID, keys: Set<String>?, capacity: Int) {
        self.watchID = watchID
        self.keys = keys
        self.capacity = max(1, capacity)
    }

    /// Queues the part of `batch` this watch asked for, dropping the oldest queued event when
    /// the queue is full; returns whether anything was queued.
    func offer(_ batch: ChangeBatch, time: WallClockTime) -> Bool {
        var batch = batch
        if let keys {
            batch.changes.removeAll { !keys.contains($0.key) }
            if batch.changes.isEmpty { return false }
        }
        state.withLock { state in
            if state.count >= capacity {
                state.head += 1
                state.dropped += 1
            }
            state.changes.append((batch, time))
            if state.head > capacity {
                state.changes.removeFirst(state.head)
                state.head = 0
            }
        }
        return true
    }

    /// Takes up to `limit` queued changes, oldest first, after a `dropped` item when changes
    /// were dropped since the last take.
    func take(upTo limit: Int) -> [Item] {
        state.withLock { state in
            var taken: [Item] = []
            if state.dropped > 0 {
                taken.append(.dropped(state.dropped))
                state.dropped = 0
            }
            let end = min(state.changes.count, state.head + limit)
            for (batch, time) in state.changes[state.head..<end] { taken.append(.change(batch, time)) }
            state.head = end
            if state.head == state.changes.count {
                state.changes.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return taken
        }
    }

    /// Whether items are waiting.
    var isEmpty: Bool { state.withLock { $0.count == 0 && $0.dropped == 0 } }
}
