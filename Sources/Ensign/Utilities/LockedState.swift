#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that is only read and written while holding a lock: Ensign's one mutual-exclusion
/// primitive.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex` because ThreadSanitizer
/// intercepts pthread locks but cannot see `Mutex`'s futex-based implementation on Linux, and
/// reports every access it protects as a race; with this lock the sanitizer checks what it
/// should. The uncontended cost is the same: one atomic compare-and-swap to lock, one to unlock.
///
/// `package` so the other targets of this package (the control server) use the same lock.
///
/// Never make a bare closure the whole state: wrap it in a ``LockedCallback`` (or a struct),
/// or every `withLock` wraps it in another reabstraction thunk (see ``LockedCallback``).
package final class LockedState<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: `state` is private and its pointee only touched inside
    // `withLock`, between pthread_mutex_lock and pthread_mutex_unlock on `mutex`; both are
    // allocated and initialised in init and destroyed in deinit, when no other reference to
    // the lock exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Behind a pointer rather than a stored `var`: the lock already makes access exclusive,
    /// and a class's stored `var` would also pay for a dynamic exclusivity check
    /// (`swift_beginAccess`) on every `withLock`, reads included.
    private let state: UnsafeMutablePointer<State>

    package init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock from `body`.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
