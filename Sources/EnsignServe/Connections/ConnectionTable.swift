import Ensign
import EnsignSupport
import EnsignYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every open connection of one server, what it is doing and since when: what keeps a crowd of
/// idle or slow clients from locking everyone else out.
///
/// libmicrohttpd tells the table when a connection opens, when its request line is in, when
/// its header section is complete, when a response ends and when it closes. From that the table
/// keeps three queues, oldest first, with one time-out each:
///
/// - **idle**: waiting for a request (new, or kept alive after a response); cut after
///   ``Settings/idleTimeout``, and the first to go when the server is under pressure;
/// - **reading headers**: the request line is in, the header section is not; cut after
///   ``Settings/headerTimeout`` however slowly the bytes keep coming (a slow-header client
///   resets an inactivity time-out with every byte);
/// - **busy**: the header section is in and the response not yet sent; cut after
///   ``Settings/requestTimeout`` (a client that stalls its body or stops reading its answer).
///
/// Event streams are in none: they last as long as their client reads them.
///
/// A connection is cut by `shutdown(2)` on its socket: libmicrohttpd then reads the end of the
/// stream and closes it in its own time. The table's lock is held across the call, and
/// libmicrohttpd reports a close (under the same lock) before it closes the descriptor, so the
/// descriptor cut is always the connection's own, never a number reused by a newer one.
///
/// Because every connection in a queue waits with the same time-out, each queue is in deadline
/// order, and a thread of the table's own (``startReaping()``) sleeps until the oldest deadline.
final class ConnectionTable: Sendable {
    /// What a connection is doing.
    enum Phase: UInt8, Sendable {
        /// Waiting for a request: new, or kept alive after a response.
        case idle
        /// The request line is in; the rest of the header section is not.
        case readingHeaders
        /// A request is being read or answered.
        case busy
        /// An event stream: long-lived, and neither idle nor timed.
        case streaming
        /// Shut down by the table; libmicrohttpd has yet to close it.
        case cut
    }

    /// The limits the table keeps.
    struct Settings: Sendable {
        /// The most connections open at once; a newcomer beyond it takes the place of the oldest
        /// idle connection, or is refused when none is idle.
        var limit: Int
        /// From this many open connections on, each newcomer reclaims the oldest idle connection,
        /// so that there is room before the limit is reached.
        var pressureMark: Int
        /// How long a connection may wait for its next request line.
        var idleTimeout: Duration
        /// How long a request's header section may take after its request line.
        var headerTimeout: Duration
        /// How long a request may take from its header section to its response sent.
        var requestTimeout: Duration
    }

    /// Why connections were refused or cut, counted since the table was made.
    struct Counters: Sendable, Equatable {
        /// Refused at accept: at the limit with no idle connection to reclaim.
        var refusedAtLimit = 0
        /// Idle connections reclaimed for newcomers under pressure.
        var reclaimed = 0
        /// Idle connections cut after the idle time-out.
        var idleTimeouts = 0
        /// Connections cut because their header section took longer than the header time-out.
        var headerTimeouts = 0
        /// Connections cut because their request took longer than the request time-out.
        var requestTimeouts = 0
        /// Idle connections cut because the server is draining.
        var drained = 0
        /// Event streams cut because their client read nothing for the request time-out.
        var stalledStreams = 0
    }

    /// A connection's number in the table, and which of the connections that had that number it
    /// is: a stream's client keeps one to ask for its connection to be cut, and a number reused by
    /// a newer connection does not cut the newer one.
    struct Ticket: Sendable, Hashable {
        let slot: Int
        let serial: UInt32
    }

    /// How many connections are in each state right now.
    struct Occupancy: Sendable, Equatable {
        var open = 0
        var idle = 0
        var readingHeaders = 0
        var busy = 0
        var streaming = 0
    }

    let settings: Settings
    private let state: LockedCondition<State>
    private let reaper = LockedState<JoinableThread?>(nil)

    init(settings: Settings) {
        self.settings = settings
        state = LockedCondition(State())
    }

    // MARK: - What libmicrohttpd reports

    /// Whether a connection just accepted may be served; called before it is handed to
    /// libmicrohttpd. At the pressure mark it reclaims the oldest idle connection; at the
    /// limit it admits the newcomer only in the place of one.
    func admit() -> Bool {
        state.withLock { state in
            let open = state.occupancy.open - state.cutPending
            if open >= settings.limit {
                if state.cutOldest(from: .idle, now: .now) {
                    state.counters.reclaimed += 1
                    return true
                }
                state.counters.refusedAtLimit += 1
                return false
            }
            if open >= settings.pressureMark, state.cutOldest(from: .idle, now: .now) {
                state.counters.reclaimed += 1
            }
            return true
        }
    }

    /// A connection opened on `socket`; returns the number libmicrohttpd keeps for it.
    func opened(socket: Int32) -> Ticket {
        state.withLock { state in
            state.open(socket: socket, now: .now)
        }
    }

    /// The request line of the next request is in.
    func requestLineArrived(_ slot: Int) {
        _ = state.withLock { $0.move(slot, to: .readingHeaders, now: .now) }
    }

    /// The header section is complete: the request is being handled.
    func headersArrived(_ slot: Int) {
        _ = state.withLock { $0.move(slot, to: .busy, now: .now) }
    }

    /// The request became an event stream.
    func streamStarted(_ slot: Int) {
        _ = state.withLock { $0.move(slot, to: .streaming, now: .now) }
    }

    /// A request ended (answered, or abandoned): the connection waits for the next one, or is
    /// cut at once while the server drains.
    func requestEnded(_ slot: Int) {
        state.withLock { state in
            if state.isDraining {
                if state.move(slot, to: .cut, now: .now) { state.counters.drained += 1 }
                if state.isQuiet { self.state.broadcast() }
            } else {
                state.move(slot, to: .idle, now: .now)
            }
        }
    }

    /// Cuts an event stream whose client has read nothing for too long (its queue full, its
    /// socket's buffer too); `false` when the ticket's connection is gone or not a stream.
    @discardableResult
    func cutStalledStream(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            guard ticket.slot < state.slots.count, state.slots[ticket.slot].serial == ticket.serial,
                state.slots[ticket.slot].socket >= 0, state.slots[ticket.slot].phase == .streaming
            else { return false }
            state.move(ticket.slot, to: .cut, now: .now)
            state.counters.stalledStreams += 1
            return true
        }
    }

    /// libmicrohttpd is about to close the connection's socket.
    func closed(_ slot: Int) {
        state.withLock { state in
            state.close(slot)
            if state.isDraining, state.isQuiet { self.state.broadcast() }
        }
    }

    // MARK: - Reading

    /// The connections in each state.
    var occupancy: Occupancy { state.withLock { $0.occupancy } }

    /// The refusals and cuts so far.
    var counters: Counters { state.withLock { $0.counters } }

    // MARK: - Time-outs and draining

    /// Starts the thread that cuts connections past their time-outs; ``stop()`` ends it.
    func startReaping() {
        let thread = JoinableThread(name: "ensign-reaper") { [self] in
            let shortest = min(settings.idleTimeout, settings.headerTimeout, settings.requestTimeout)
            var wait = shortest
            while !state.wait(until: \.isStopped, timeout: wait) {
                wait = state.withLock { state in
                    state.cutExpired(settings: settings, now: .now) ?? shortest
                }
            }
        }
        reaper.withLock { $0 = thread }
    }

    /// Stops cutting connections and joins the reaping thread.
    func stop() {
        state.update { $0.isStopped = true }
        reaper.withLock { $0.take() }?.join()
    }

    /// Cuts every idle connection, and from now on each connection as soon as its request ends.
    func beginDraining() {
        state.withLock { state in
            state.isDraining = true
            while state.cutOldest(from: .idle, now: .now) { state.counters.drained += 1 }
        }
    }

    /// Waits until no request is being read or answered and no stream is open, or `timeout`
    /// passes; returns whether it is so.
    func waitUntilQuiet(timeout: Duration) -> Bool {
        state.wait(until: \.isQuiet, timeout: timeout)
    }
}

extension ConnectionTable {
    /// The table itself: a slab of slots (a connection's number is its slot), and the two
    /// queues threaded through them.
    private struct State {
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var nextSerial: UInt32 = 0
        var idle = Queue()
        var readingHeaders = Queue()
        var busy = Queue()
        var occupancy = Occupancy()
        /// Connections cut and not yet closed: they still hold a descriptor, but no longer a place.
        var cutPending = 0
        var counters = Counters()
        var isDraining = false
        var isStopped = false

        /// No request in progress and no stream open.
        var isQuiet: Bool { occupancy.readingHeaders == 0 && occupancy.busy == 0 && occupancy.streaming == 0 }

        mutating func open(socket: Int32, now: ContinuousClock.Instant) -> Ticket {
            let slot: Int
            nextSerial &+= 1
            let opened = Slot(socket: socket, phase: .idle, since: now, serial: nextSerial)
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = opened
            } else {
                slot = slots.count
                slots.append(opened)
            }
            occupancy.open += 1
            occupancy.idle += 1
            append(slot, to: .idle)
            return Ticket(slot: slot, serial: nextSerial)
        }

        mutating func close(_ slot: Int) {
            leave(slot)
            if slots[slot].phase == .cut { cutPending -= 1 }
            slots[slot].socket = -1
            occupancy.open -= 1
            freeSlots.append(slot)
        }

        /// Moves a connection to `phase`; a cut connection stays cut (and the result is `false`).
        @discardableResult
        mutating func move(_ slot: Int, to phase: Phase, now: ContinuousClock.Instant) -> Bool {
            guard slot < slots.count, slots[slot].socket >= 0, slots[slot].phase != .cut else { return false }
            leave(slot)
            slots[slot].phase = phase
            slots[slot].since = now
            switch phase {
            case .idle:
                occupancy.idle += 1
                append(slot, to: .idle)
            case .readingHeaders:
                occupancy.readingHeaders += 1
                append(slot, to: .readingHeaders)
            case .busy:
                occupancy.busy += 1
                append(slot, to: .busy)
            case .streaming: occupancy.streaming += 1
            case .cut:
                cutPending += 1
                _ = shutdown(slots[slot].socket, Int32(SHUT_RDWR))
            }
            return true
        }

        /// Takes a connection out of its phase's count and queue.
        private mutating func leave(_ slot: Int) {
            switch slots[slot].phase {
            case .idle:
                occupancy.idle -= 1
                remove(slot, from: .idle)
            case .readingHeaders:
                occupancy.readingHeaders -= 1
                remove(slot, from: .readingHeaders)
            case .busy:
                occupancy.busy -= 1
                remove(slot, from: .busy)
            case .streaming: occupancy.streaming -= 1
            case .cut: break
            }
        }

        /// Cuts the connection that has waited longest in `queue`; `false` when it is empty.
        mutating func cutOldest(from queue: QueueName, now: ContinuousClock.Instant) -> Bool {
            let oldest = self[queue].oldest
            guard oldest >= 0 else { return false }
            move(oldest, to: .cut, now: now)
            return true
        }

        /// Cuts the connections past their deadlines; returns how long until the next deadline.
        mutating func cutExpired(settings: Settings, now: ContinuousClock.Instant) -> Duration? {
            var next: Duration?
            let queues = [
                (QueueName.idle, settings.idleTimeout), (.readingHeaders, settings.headerTimeout),
                (.busy, settings.requestTimeout),
            ]
            for (queue, timeout) in queues {
                while self[queue].oldest >= 0 {
                    let deadline = slots[self[queue].oldest].since + timeout
                    if deadline > now {
                        next = min(next ?? .seconds(3600), deadline - now)
                        break
                    }
                    _ = cutOldest(from: queue, now: now)
                    switch queue {
                    case .idle: counters.idleTimeouts += 1
                    case .readingHeaders: counters.headerTimeouts += 1
                    case .busy: counters.requestTimeouts += 1
                    }
                }
            }
            // Deadlines a few milliseconds apart are taken together rather than one wake-up each.
            return next.map { max($0, .milliseconds(5)) }
        }

        // MARK: Queues threaded through the slots

        enum QueueName { case idle, readingHeaders, busy }

        subscript(queue: QueueName) -> Queue {
            get {
                switch queue {
                case .idle: idle
                case .readingHeaders: readingHeaders
                case .busy: busy
                }
            }
            set {
                switch queue {
                case .idle: idle = newValue
                case .readingHeaders: readingHeaders = newValue
                case .busy: busy = newValue
                }
            }
        }

        private mutating func append(_ slot: Int, to queue: QueueName) {
            let newest = self[queue].newest
            slots[slot].older = newest
            slots[slot].newer = -1
            if newest >= 0 { slots[newest].newer = slot } else { self[queue].oldest = slot }
            self[queue].newest = slot
        }

        private mutating func remove(_ slot: Int, from queue: QueueName) {
            let (older, newer) = (slots[slot].older, slots[slot].newer)
            if older >= 0 { slots[older].newer = newer } else { self[queue].oldest = newer }
            if newer >= 0 { slots[newer].older = older } else { self[queue].newest = older }
            slots[slot].older = -1
            slots[slot].newer = -1
        }
    }

    /// One connection: its socket, phase and since when, and its neighbours in its queue.
    private struct Slot {
        var socket: Int32
        var phase: Phase
        var since: ContinuousClock.Instant
        var serial: UInt32
        var older = -1
        var newer = -1
    }

    /// A queue's ends (slot numbers, -1 when empty).
    private struct Queue {
        var oldest = -1
        var newest = -1
    }
}
