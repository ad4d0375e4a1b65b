import Ensign

/// One event-stream connection's outgoing events: a bounded queue the hub fills and the
/// connection's thread drains into libmicrohttpd's buffer.
///
/// When a slow client lets `capacity` events pile up, the oldest is dropped: every OFREP
/// event says "evaluate again", so the newest one carries everything the dropped ones did.
final class EventStreamClient: Sendable {
    private struct State {
        var queue: [[UInt8]] = []
        /// The rest of an event that did not fit in the last buffer.
        var partial: ArraySlice<UInt8> = []
        var isClosed = false
        var droppedEvents = 0
    }

    private let state = LockedCondition(State())
    private let capacity: Int

    /// A client whose queue holds at most `capacity` events.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues an event's wire text, dropping the oldest queued one when the queue is full.
    func enqueue(_ text: String) {
        state.update { state in
            guard !state.isClosed else { return }
            if state.queue.count >= capacity {
                state.queue.removeFirst()
                state.droppedEvents += 1
            }
            state.queue.append(Array(text.utf8))
        }
    }

    /// Ends the stream: the next read reports its end.
    func close() {
        state.update { $0.isClosed = true }
    }

    /// How many events were dropped because the client read too slowly.
    var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    /// What the connection sends next, at most `capacity` bytes: queued events, or after
    /// `keepAlive` without any, an SSE comment; `nil` when the stream is over.
    func next(maximumBytes: Int, keepAlive: Duration) -> ArraySlice<UInt8>? {
        _ = state.wait(until: { !$0.queue.isEmpty || !$0.partial.isEmpty || $0.isClosed }, timeout: keepAlive)
        return state.withLock { state -> ArraySlice<UInt8>? in
            if state.isClosed { return nil }
            if state.partial.isEmpty {
                state.partial =
                    state.queue.isEmpty ? ArraySlice(": keep-alive\n\n".utf8) : state.queue.removeFirst()[...]
            }
            let chunk = state.partial.prefix(maximumBytes)
            state.partial = state.partial.dropFirst(chunk.count)
            return chunk
        }
    }
}
