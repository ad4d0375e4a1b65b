#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects values — what observers were called with, log lines, events — from any thread, in
/// the order they arrive. The one recorder the test targets share.
///
/// ```swift
/// let seen = Recorder<Int>()
/// let token = context.observe(.pageSize) { seen.record($0) }
/// #expect(seen.values == [30])
/// ```
///
/// Behind a pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer cannot see the
/// latter's futex-based lock on Linux, and reported the recorder's own accesses as races once
/// observers on several threads recorded at the same moment (the library's `LockedState` is
/// built the same way, for the same reason).
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable, proven: `storage` is private and only read or written inside
    // `withLock`, between pthread_mutex_lock and pthread_mutex_unlock on `mutex`, which is
    // allocated and initialised in init and destroyed in deinit, when no other reference exists.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var storage: [Value] = []

    /// An empty recorder.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    private func withLock<Result>(_ body: (inout [Value]) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&storage)
    }

    /// Appends `value`.
    public func record(_ value: Value) { withLock { $0.append(value) } }

    /// Everything recorded so far, oldest first.
    public var values: [Value] { withLock { $0 } }

    /// How many values were recorded.
    public var count: Int { withLock { $0.count } }

    /// Removes and returns everything recorded so far, for a test that checks one phase at a time.
    public func takeAll() -> [Value] {
        withLock { values in
            defer { values.removeAll() }
            return values
        }
    }
}
