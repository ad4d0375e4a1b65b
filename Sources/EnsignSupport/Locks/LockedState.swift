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
package struct LockedState<State>: @unchecked Sendable {
    // @unchecked Sendable, proven: the state lives in `storage`'s header and is only touched
    // inside `withLock`, between pthread_mutex_lock and pthread_mutex_unlock on the mutex in
    // the same allocation; both are initialised when the storage is created and destroyed in
    // its deinit, when no other reference to it exists. Copies of this struct share `storage`,
    // so they share the lock, as references to a class would.
    @usableFromInline let storage: Storage

    /// The state and its mutex in one heap allocation: a lock made per child context or per
    /// observer costs one `malloc`, not three (object, state, mutex). `ManagedBuffer` hands out
    /// stable pointers to both without a class's dynamic exclusivity checks.
    @usableFromInline final class Storage: ManagedBuffer<Header, pthread_mutex_t> {
        // The state is in `ManagedBuffer`'s stored `header`, destroyed with the object; only the
        // tail-allocated mutex is this class's to destroy.
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }

    /// The state, and a byte that keeps the header from being empty. An empty header (a
    /// `LockedState(())`) has no address of its own: `withUnsafeMutablePointers` hands out a
    /// placeholder address, and ThreadSanitizer took each `inout` access of the empty state for a
    /// write at that address, racing with unlocked reads of the object's own first word by
    /// another thread about to lock (a false "Swift access race"). With the byte, the state's
    /// address is inside the header, which is only touched under the lock.
    @usableFromInline struct Header {
        @usableFromInline var state: State
        let nonEmpty: UInt8 = 0
    }

    package init(_ initialState: State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in Header(state: initialState) }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(mutex, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        }
    }

    /// Runs `body` with exclusive access to the state. Do not call back into the same lock from `body`.
    ///
    /// Inlinable, so that the other modules of the package (the HTTP server takes several locks
    /// per request) call it specialised for their state rather than through generic metadata.
    @inlinable @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try storage.withUnsafeMutablePointers { (header, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&header.pointee.state)
        }
    }
}
