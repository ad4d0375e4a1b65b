#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a lock, with a condition threads can wait on until the value says they
/// may go on (with or without a timeout): ``LockedState`` plus waiting.
///
/// Built on `pthread_mutex_t` and `pthread_cond_t`, which ThreadSanitizer understands. The
/// condition uses the monotonic clock on Linux, so a timeout does not move with the wall clock.
/// `package` so the fleet's session (EnsignFleet) waits with the same primitive.
package final class LockedCondition<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: `state` is private and its pointee only touched inside
    // `withLock` and `wait`, between pthread_mutex_lock and pthread_mutex_unlock on `mutex`
    // (pthread_cond_wait releases and retakes the mutex, and the predicate runs with it held);
    // all three are allocated and initialised in init and destroyed in deinit, when no other
    // reference exists.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    @usableFromInline let state: UnsafeMutablePointer<State>

    package init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        #if os(Linux)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
            pthread_condattr_destroy(&attributes)
        #else
            precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
        #endif
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

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock from
    /// `body`. Inlinable, as ``LockedState/withLock(_:)`` is.
    @inlinable
    package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state.pointee)
    }

    /// Waits until `isReady` holds for the state, then runs `body` with the lock still held.
    package func wait<Result>(until isReady: (State) -> Bool, then body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(state.pointee) { pthread_cond_wait(condition, mutex) }
        return body(&state.pointee)
    }

    /// Waits until `isReady` holds or `timeout` passes; returns whether it holds.
    package func wait(until isReady: (State) -> Bool, timeout: Duration) -> Bool {
        let deadline = Self.absoluteTime(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(state.pointee) {
            var time = deadline
            if pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT { return isReady(state.pointee) }
        }
        return true
    }

    /// Changes the state and wakes every waiter.
    @inlinable
    package func update(_ body: (inout State) -> Void) {
        pthread_mutex_lock(mutex)
        body(&state.pointee)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Wakes every waiting thread so each checks its condition again. Call it after changing
    /// the state in a way a waiter may be waiting for.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// The condition's clock (monotonic on Linux, real time elsewhere) plus `duration`.
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
