import Ensign
import EnsignOFREP
import EnsignSupport

/// One event-stream connection's outgoing events: a bounded queue the hub fills, and the
/// connection's worker drains into libmicrohttpd's buffer.
///
/// An idle stream costs no thread: when the queue is empty the worker suspends the connection
/// (``SuspendableConnection``) and goes on with others; the next event resumes it. Whether it
/// is suspended is decided under the client's lock, so an event queued while the worker is
/// about to suspend always resumes it (libmicrohttpd cancels a suspension that a resumption
/// overtook).
///
/// Every resumption is made with the client's lock held, the same lock under which the stream
/// is closed and under which libmicrohttpd's freeing of the response is recorded: so no thread
/// resumes a connection that a stopping server, or libmicrohttpd, has already let go of (a
/// resumption made after the lock, on a stale flag, reached a freed connection), and a
/// connection marked for resumption is always resumed before the server stops.
///
/// When a slow client lets `capacity` events pile up, the oldest is dropped: every OFREP
/// event says "evaluate again", so the newest one carries everything the dropped ones did.
final class EventStreamClient: Sendable {
    fileprivate struct State {
        var queue: [[UInt8]] = []
        /// The rest of an event that did not fit in the last buffer.
        var partial: ArraySlice<UInt8> = []
        /// The worker suspended the connection (or is about to) for want of events.
        var isSuspended = false
        /// An event was queued for a suspended connection and the hub resumes it next
        /// (``EventStreamClient/resumeIfPending()``).
        var isResumePending = false
        /// End the stream once the queue is sent (the server drains).
        var isFinishing = false
        /// End the stream now; nothing more is queued.
        var isClosed = false
        var droppedEvents = 0
        /// When something was last queued, for keep-alive comments.
        var lastQueued: ContinuousClock.Instant
        /// When the worker last took bytes to send, or the queue last went from empty to not:
        /// how long the client has left what is queued unread.
        var lastProgress: ContinuousClock.Instant
    }

    /// What the worker does next.
    enum Next {
        /// Send these bytes.
        case send(ArraySlice<UInt8>)
        /// Nothing to send: the connection was suspended until an event comes.
        case wait
        /// The stream is over.
        case end
    }

    private let state: LockedState<State>
    private let capacity: Int
    let connection: SuspendableConnection

    /// The flag set the client asked about (`Flagd-Selector`), whose changes alone it hears of.
    let selector: OFREPFlagSetSelector?

    /// A client whose queue holds at most `capacity` events, on `connection`, for the flag set
    /// `selector` selects (every flag when `nil`).
    init(capacity: Int, connection: SuspendableConnection, selector: OFREPFlagSetSelector? = nil) {
        self.capacity = max(1, capacity)
        self.connection = connection
        self.selector = selector
        state = LockedState(State(lastQueued: .now, lastProgress: .now))
    }

    /// Queues an event's wire text, dropping the oldest queued one when the queue is full.
    func enqueue(_ text: String) {
        enqueue(Array(text.utf8))
    }

    /// Queues an event's wire bytes; one array queued for many clients is shared, not copied.
    func enqueue(_ bytes: [UInt8]) {
        if enqueueLeavingSuspended(bytes) { resumeIfPending() }
    }

    /// Queues an event's wire bytes without resuming the connection; returns whether it waits
    /// for ``resumeIfPending()``, which the caller calls as soon as it can.
    ///
    /// For the hub's fan-out: it queues an event for every client first and resumes their
    /// connections after, in one tight loop, so that each worker finds many resumed at once
    /// rather than waking for each.
    func enqueueLeavingSuspended(_ bytes: [UInt8], now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isClosed, !state.isFinishing else { return false }
            if state.queue.isEmpty, state.partial.isEmpty { state.lastProgress = now }
            if state.queue.count >= capacity {
                state.queue.removeFirst()
                state.droppedEvents += 1
            }
            state.queue.append(bytes)
            state.lastQueued = now
            if state.isSuspended {
                state.isSuspended = false
                state.isResumePending = true
            }
            return state.isResumePending
        }
    }

    /// Resumes the connection when an event waits for it (and the connection is still
    /// libmicrohttpd's to resume).
    func resumeIfPending() {
        state.withLock { state in
            guard state.isResumePending else { return }
            state.isResumePending = false
            connection.resume()
        }
    }

    /// Queues a comment line when nothing was queued for `interval`, so proxies keep an idle
    /// stream open and a vanished client is noticed (its write fails).
    func keepAlive(ifIdleFor interval: Duration, now: ContinuousClock.Instant) {
        state.withLock { state in
            guard !state.isClosed, !state.isFinishing, state.queue.isEmpty, state.partial.isEmpty,
                now - state.lastQueued >= interval
            else { return }
            state.queue.append(Array(": keep-alive\n\n".utf8))
            state.lastQueued = now
            state.resumeNow(connection)
        }
    }

    /// Sends `text` last, then ends the stream.
    func finish(with text: String) {
        let bytes = Array(text.utf8)
        state.withLock { state in
            guard !state.isClosed, !state.isFinishing else { return }
            state.queue.append(bytes)
            state.isFinishing = true
            state.resumeNow(connection)
        }
    }

    /// Ends the stream now: the next read reports its end.
    func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            state.resumeNow(connection)
        }
    }

    /// The connection is gone (libmicrohttpd freed the response): never touch it again.
    func connectionEnded() {
        state.withLock { state in
            state.isClosed = true
            state.isSuspended = false
            state.isResumePending = false
        }
    }

    /// Whether the client has left queued events unread for longer than `limit` (its socket's
    /// buffer is full, so the worker cannot send them).
    func isStalled(now: ContinuousClock.Instant, limit: Duration) -> Bool {
        state.withLock { state in
            !state.isClosed && (!state.queue.isEmpty || !state.partial.isEmpty) && now - state.lastProgress > limit
        }
    }

    /// How many events were dropped because the client read too slowly.
    var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    /// On the connection's worker: what to send next, at most `maximumBytes`. When there is
    /// nothing, the connection is suspended before this returns ``Next/wait``.
    func next(maximumBytes: Int) -> Next {
        let next = state.withLock { state -> Next in
            if state.isClosed { return .end }
            if state.partial.isEmpty {
                guard !state.queue.isEmpty else {
                    if state.isFinishing { return .end }
                    state.isSuspended = true
                    return .wait
                }
                state.partial = state.queue.removeFirst()[...]
            }
            let chunk = state.partial.prefix(maximumBytes)
            state.partial = state.partial.dropFirst(chunk.count)
            state.lastProgress = .now
            return .send(chunk)
        }
        if case .wait = next { connection.suspend() }
        return next
    }
}

extension EventStreamClient.State {
    /// Resumes the connection if it is suspended or waits to be resumed; called with the
    /// client's lock held (see the type's discussion).
    fileprivate mutating func resumeNow(_ connection: SuspendableConnection) {
        guard isSuspended || isResumePending else { return }
        isSuspended = false
        isResumePending = false
        connection.resume()
    }
}
