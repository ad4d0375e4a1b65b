import Ensign

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
/// When the client reads too slowly and the queue is full, further events are dropped and
/// counted; the count is queued as one `dropped` item in their place, so the client learns
/// exactly where it missed events and how many.
final class WatchOutbox: Sendable {
    enum Item: Sendable {
        case change(ChangeBatch, WallClockTime)
        case dropped(Int)
    }

    private struct State {
        var items: [Item] = []
        var head = 0
        var changeCount = 0
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

    /// Queues the part of `batch` this watch asked for; returns whether anything was queued
    /// (or counted as dropped).
    func offer(_ batch: ChangeBatch, time: WallClockTime) -> Bool {
        var batch = batch
        if let keys {
            batch.changes.removeAll { !keys.contains($0.key) }
            if batch.changes.isEmpty { return false }
        }
        state.withLock { state in
            if state.changeCount >= capacity {
                if case .dropped(let count)? = state.items.last, state.items.count > state.head {
                    state.items[state.items.count - 1] = .dropped(count + 1)
                } else {
                    state.items.append(.dropped(1))
                }
            } else {
                state.items.append(.change(batch, time))
                state.changeCount += 1
            }
        }
        return true
    }

    /// Takes up to `limit` queued items, oldest first.
    func take(upTo limit: Int) -> [Item] {
        state.withLock { state in
            let end = min(state.items.count, state.head + limit)
            let taken = Array(state.items[state.head..<end])
            state.head = end
            for item in taken {
                if case .change = item { state.changeCount -= 1 }
            }
            if state.head == state.items.count {
                state.items.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 1024 {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return taken
        }
    }

    /// Whether items are waiting.
    var isEmpty: Bool { state.withLock { $0.head == $0.items.count } }
}
