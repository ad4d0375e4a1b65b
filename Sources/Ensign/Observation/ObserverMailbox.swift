import EnsignSupport

/// The deliveries waiting for one observer whose handler runs on an actor: a locked FIFO that
/// one job at a time drains on that actor.
///
/// Why a mailbox and not a task per change: tasks enqueued on an actor do not promise to run
/// in the order they were created, so values could arrive out of commit order. Here the
/// delivering thread appends each value in commit order (``post(_:)``), and only the one job
/// that is scheduled at a time takes them out, oldest first (``drain(_:)``), so the handler
/// sees every value, in order, and never two calls at once.
///
/// Cancelling (``close()``) drops what is queued, and returns only once no handler call is
/// running on another thread: after it returns, no call starts. From inside the handler it
/// returns at once (the current call is the last).
final class ObserverMailbox<Message: Sendable>: Sendable {
    private struct State {
        /// Messages still to run from `head` on.
        var messages: [Message] = []
        var head = 0
        /// Whether a drain job is scheduled or running; at most one is.
        var isDraining = false
        var isClosed = false
        /// The thread running the handler now, if any.
        var handlerThread: UInt?

        var hasMessages: Bool { head < messages.count }

        mutating func removeAll() {
            messages.removeAll(keepingCapacity: messages.count <= 64)
            head = 0
        }
    }

    /// How many messages one job runs before it yields the actor to other work (and schedules
    /// the next job): a burst of changes does not hold the main actor for the whole burst.
    static var messagesPerJob: Int { 64 }

    private let state = LockedCondition(State())
    /// Schedules one job on the target actor that calls ``drain(_:)``.
    private let scheduleDrain: @Sendable (ObserverMailbox) -> Void

    /// A mailbox whose drain jobs `scheduleDrain` starts on the target actor.
    init(scheduleDrain: @escaping @Sendable (ObserverMailbox) -> Void) {
        self.scheduleDrain = scheduleDrain
    }

    /// Queues `message` (called by the delivering thread, in commit order), and schedules a
    /// drain job unless one is already scheduled. Does nothing once closed.
    func post(_ message: Message) {
        let schedules = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.messages.append(message)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if schedules { scheduleDrain(self) }
    }

    /// Runs `body` with the queued messages, oldest first, up to ``messagesPerJob`` of them;
    /// schedules the next job if more are left. Call it from the drain job only, on the target
    /// actor.
    func drain(_ body: (Message) -> Void) {
        let me = ThreadIdentity.current
        var remaining = Self.messagesPerJob
        while let message = next(on: me, remaining: remaining) {
            body(message)
            remaining -= 1
        }
        let continues = state.withLock { state -> Bool in
            guard state.isDraining else { return false }
            if state.isClosed || !state.hasMessages {
                state.isDraining = false
                return false
            }
            return true
        }
        if continues { scheduleDrain(self) }
    }

    /// Takes the next message and marks this thread as running the handler; `nil` when the
    /// mailbox is closed or empty, or this job has run its share.
    private func next(on me: UInt, remaining: Int) -> Message? {
        let message = state.withLock { state -> Message? in
            state.handlerThread = nil
            guard !state.isClosed, state.hasMessages, remaining > 0 else {
                if !state.hasMessages { state.removeAll() }
                return nil
            }
            let message = state.messages[state.head]
            state.head += 1
            // Drop run messages (and the values they hold) as the queue moves on.
            if state.head >= 32, state.head * 2 >= state.messages.count {
                state.messages.removeFirst(state.head)
                state.head = 0
            }
            state.handlerThread = me
            return message
        }
        // A `close()` on another thread waits for the handler to stop running.
        if message == nil { state.broadcast() }
        return message
    }

    /// Drops the queued messages and stops every later call; returns once the handler is not
    /// running on another thread (from inside the handler, at once). Later calls do nothing.
    func close() {
        let me = ThreadIdentity.current
        state.withLock { state in
            state.isClosed = true
            state.removeAll()
        }
        state.wait(until: { $0.handlerThread == nil || $0.handlerThread == me }, then: { _ in })
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool { state.withLock(\.isClosed) }

    /// How many messages wait (for tests).
    var queuedCount: Int { state.withLock { $0.messages.count - $0.head } }
}
