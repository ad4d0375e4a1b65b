#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a lock, with a condition threads can wait on until the value says they
/// may go on: ``LockedState`` plus waiting.
///
/// Built on `pthread_mutex_t` and `pthread_cond_t`, which ThreadSanitizer understands.
final class LockedCondition<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: `state` is private and its pointee only touched inside
    // `withLock` and `wait`, between pthread_mutex_lock and pthread_mutex_unlock on `mutex`
    // (pthread_cond_wait releases and retakes the mutex, and the predicate runs with it held);
    // all three are allocated and initialised in init and destroyed in deinit, when no other
    // reference exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let state: UnsafeMutablePointer<State>

    init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock from `body`.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state.pointee)
    }

    /// Waits until `isReady` holds for the state, then runs `body` with the lock still held.
    func wait<Result>(until isReady: (State) -> Bool, then body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(state.pointee) { pthread_cond_wait(condition, mutex) }
        return body(&state.pointee)
    }

    /// Wakes every waiting thread so each checks its condition again. Call it after changing
    /// the state in a way a waiter may be waiting for.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
