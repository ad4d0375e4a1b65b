import Synchronization

/// Whether a refresh of a menu is already on its way to the main actor: a burst of changes
/// from other threads queues one refresh, not one per change, since a refresh reads every
/// entry and each would redo the same work on the main actor.
final class RefreshRequest: Sendable {
    private let isQueued = Atomic<Bool>(false)

    /// Marks a refresh as queued; `true` when none was, so the caller queues one.
    func request() -> Bool {
        !isQueued.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Called by the queued refresh before it reads: a change after this queues another.
    func begin() {
        isQueued.store(false, ordering: .releasing)
    }
}
