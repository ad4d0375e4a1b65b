import EnsignSupport

/// Runs notification rounds one at a time, in commit order, outside every lock.
///
/// One queue serves a whole context tree (a root and its children), so rounds from a child
/// and its parent are delivered in the order they were committed. One thread at a time
/// delivers; the others wait:
///
/// - A write returns once its own round has been delivered, so its observers have run.
/// - The delivering thread delivers the rounds queued before its own (they were committed
///   first), then its own, then hands the role to a waiting writer — it never delivers an
///   endless stream of other threads' rounds, however many threads keep writing.
/// - An observer that writes to the context runs on the delivering thread: its write is
///   queued and delivered after the current round, by the same thread, and the write returns
///   at once (waiting there would wait for itself). An observer must therefore not wait for
///   another thread's write to the same context tree.
final class DeliveryQueue: Sendable {
    private struct Round {
        let deliver: @Sendable () -> Void
        let owner: UInt
    }

    private struct State {
        /// Rounds still to run from `head` on; a round's slot is emptied as it starts, so the
        /// snapshot it holds is freed once delivered, not when the queue next compacts.
        var pending: [Round?] = []
        var head = 0
        /// The thread delivering, if any.
        var deliverer: UInt?
        /// Rounds queued and not yet delivered, by the thread that queued them.
        var undelivered: [UInt: Int] = [:]

        func hasUndelivered(_ thread: UInt) -> Bool { (undelivered[thread] ?? 0) > 0 }
    }

    private let state = LockedCondition(State())

    /// Queues `round`. Call it while still holding the lock that ordered the commit, then call
    /// ``deliverPending()`` after releasing that lock.
    func enqueue(_ round: @escaping @Sendable () -> Void) {
        let owner = ThreadIdentity.current
        state.withLock { state in
            state.pending.append(Round(deliver: round, owner: owner))
            state.undelivered[owner, default: 0] += 1
        }
    }

    /// Returns once every round this thread queued has been delivered: by this thread, or by
    /// the one delivering when it comes to them. From inside an observer it returns at once.
    func deliverPending() {
        let me = ThreadIdentity.current
        let delivers = state.wait(
            until: { $0.deliverer == nil || $0.deliverer == me || !$0.hasUndelivered(me) },
            then: { state -> Bool in
                guard state.deliverer == nil, state.hasUndelivered(me) else { return false }
                state.deliverer = me
                return true
            })
        guard delivers else { return }
        while let round = nextRound(for: me) {
            round.deliver()
            state.withLock { state in
                state.undelivered[round.owner]! -= 1
                if state.undelivered[round.owner] == 0 { state.undelivered[round.owner] = nil }
            }
            state.broadcast()
        }
        state.broadcast()
    }

    /// The next round for the delivering thread `me`, or `nil` when it is done: nothing is
    /// left, or only other (waiting) threads' rounds are, which one of them delivers next.
    private func nextRound(for me: UInt) -> Round? {
        state.withLock { state in
            guard state.head < state.pending.count, state.hasUndelivered(me) else {
                if state.head == state.pending.count {
                    // Shrink after a burst instead of keeping its capacity for good.
                    state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
                    state.head = 0
                }
                state.deliverer = nil
                return nil
            }
            let round = state.pending[state.head].take()
            state.head += 1
            // Drop delivered rounds (and the snapshots they hold) as the queue moves on.
            if state.head >= 32, state.head * 2 >= state.pending.count {
                state.pending.removeFirst(state.head)
                state.head = 0
            }
            return round
        }
    }

    /// How many slots the queue holds, run or not, and how many of them still hold a round (for tests).
    var storedRounds: (slots: Int, held: Int) {
        state.withLock { state in (state.pending.count, state.pending.count { $0 != nil }) }
    }
}
