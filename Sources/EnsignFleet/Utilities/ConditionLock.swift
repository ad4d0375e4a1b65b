#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex, with a condition variable to wait until it meets a
/// condition (with a timeout) and to wake the waiters after a change.
///
/// pthread-based like Ensign's `LockedState`, so ThreadSanitizer sees it on Linux.
final class ConditionLock<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: `state` is private and only touched between
    // pthread_mutex_lock and pthread_mutex_unlock on `mutex` (pthread_cond_timedwait
    // re-acquires it before returning); both primitives live from init to deinit.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State

    init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if os(Linux)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #else
            pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }

    /// Changes the state and wakes every waiter.
    func update(_ body: (inout State) -> Void) {
        pthread_mutex_lock(mutex)
        body(&state)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until `predicate` holds or `timeout` passes; returns whether it holds.
    func wait(until predicate: (State) -> Bool, timeout: Duration) -> Bool {
        let deadline = Self.absoluteTime(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !predicate(state) {
            var time = deadline
            if pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT { return predicate(state) }
        }
        return true
    }

    /// The condition variable's clock (monotonic on Linux, real time elsewhere) plus `duration`.
    private static func absoluteTime(after duration: Duration) -> timespec {
        var now = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC, &now)
        #else
            clock_gettime(CLOCK_REALTIME, &now)
        #endif
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        wholeSeconds += nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        return timespec(tv_sec: time_t(wholeSeconds), tv_nsec: Int(nanoseconds))
    }
}
