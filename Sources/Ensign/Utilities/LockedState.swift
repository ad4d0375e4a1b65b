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
@_spi(Tooling) public final class LockedState<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: `state` is private and only touched inside `withLock`,
    // between pthread_mutex_lock and pthread_mutex_unlock on `mutex`, which is created in
    // init and destroyed in deinit, when no other reference to the lock exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the lock around `initialState`.
    public init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock from `body`.
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
