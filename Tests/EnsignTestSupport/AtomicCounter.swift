import Synchronization

/// A count any thread may add to: how often an observer ran, a watch fired, an attempt failed.
/// The one counter the test targets share.
///
/// ```swift
/// let changes = AtomicCounter()
/// let stop = try backend.watch { changes.increment() }
/// #expect(changes.count == 1)
/// ```
///
/// A class, so that escaping closures can share it (an `Atomic` cannot be captured); an
/// `Atomic` rather than a lock, as ThreadSanitizer sees atomics (see ``Recorder`` for the lock
/// it does not see).
public final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// A counter at zero.
    public init() {}

    /// Adds one.
    public func increment() { value.add(1, ordering: .sequentiallyConsistent) }

    /// How many times ``increment()`` was called so far.
    public var count: Int { value.load(ordering: .sequentiallyConsistent) }
}
