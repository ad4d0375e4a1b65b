/// Runs notification rounds one at a time, in commit order, outside every lock.
///
/// The thread that commits a transaction delivers it, unless another round is already being
/// delivered: then the round is queued and the delivering thread runs it next. So an
/// observer that writes to the context never recurses: its write is delivered after the
/// current round. One queue serves a whole context tree (a root and its children), so
/// rounds from a child and its parent are delivered in the order they were committed.
final class DeliveryQueue: Sendable {
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var head = 0
        var isDelivering = false
    }

    private let state = LockedState(State())

    /// Queues `round`. Call it while still holding the lock that ordered the commit, then call
    /// ``deliverPending()`` after releasing that lock.
    func enqueue(_ round: @escaping @Sendable () -> Void) {
        state.withLock { $0.pending.append(round) }
    }

    /// Delivers queued rounds until the queue is empty, unless another thread is delivering
    /// (it will deliver them).
    func deliverPending() {
        let shouldDeliver = state.withLock { state in
            guard !state.isDelivering, state.head < state.pending.count else { return false }
            state.isDelivering = true
            return true
        }
        guard shouldDeliver else { return }
        while let next = nextRound() { next() }
    }

    private func nextRound() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.head < state.pending.count else {
                state.pending.removeAll(keepingCapacity: true)
                state.head = 0
                state.isDelivering = false
                return nil
            }
            let round = state.pending[state.head]
            state.head += 1
            return round
        }
    }
}
