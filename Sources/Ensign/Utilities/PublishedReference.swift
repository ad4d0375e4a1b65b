import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reference that any number of threads read without a lock while one publisher at a time
/// replaces it: a root context's current snapshot.
///
/// A read borrows the current object for the length of a short closure, with no lock and no
/// retain: it registers in a reader count, loads the reference, runs the closure, and
/// deregisters. A publisher swaps the reference in and, before releasing the previous object,
/// waits until no reader that could have loaded it is still registered. Readers never wait for
/// publishers; a publisher waits at most for reads already in flight (nanoseconds each).
///
/// ## Why a borrowed object is never freed under its reader
///
/// The reader count is split by an epoch: a reader registers in the half named by the epoch's
/// parity, and a publisher, after swapping the reference, advances the epoch (new readers go
/// to the other half) and waits for the half it closed to drain. Registering, checking the
/// epoch, loading the reference, swapping it, advancing the epoch and reading the count are
/// all sequentially consistent, so they fall in one total order S that every thread agrees on.
///
/// A reader R registers in half `e & 1`, then sees the epoch still at `e` (else it
/// deregisters and retries), then loads the reference P. The publisher W that swaps P out does
/// so after R's load in S (R saw P, not W's object), so W advances the epoch after R's check:
/// from `e` itself, or from a later value, in which case an earlier publisher advanced it from
/// `e`. Whichever publisher advanced it from `e` did so after R registered, and then waited
/// for half `e & 1` to read zero; it cannot while R is registered, so it finished after R
/// deregistered, and W (which runs after it) releases P later still. R deregisters with a
/// release and the publisher reads the count with an acquire, and every change of the count is
/// a read-modify-write, so all of R's reads of P happen before P is released.
///
/// Loading the reference acquires what the publisher's swap released, so a reader sees the
/// object fully built; and a read that starts after a publish returned (on any thread, through
/// anything that orders the two) sees that object or a later one.
///
/// Noncopyable and stored inline in its owner (every `ContextStore`; a child's holds no
/// object), so a read reaches the atomics through the owner it already holds, with no
/// reference of its own to retain. Not an optional of this type in the owner: matching an
/// optional reads its payload's bits to find the case, a plain read of atomic memory that
/// races with publishers (ThreadSanitizer reported it); the owner branches on a plain `let`.
///
/// Publishers must be serialised by the caller (a context publishes under its tree's writer
/// lock): two publishers advancing the epoch at once could each wait on the wrong half.
/// A read's closure must be short and must not publish to this reference or wait for anything
/// a publisher may hold while it waits (the writer lock, a snapshot lock).
struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The current object, which this value owns one retain of; `nil` only in a value made
    /// empty, which is never read or published to.
    private let current: Atomic<Unmanaged<Object>?>
    /// How many publishes there have been; its parity names the half of `readers` new
    /// readers register in.
    private let epoch = Atomic<UInt64>(0)
    /// The readers registered in each half: the even epochs' in the low 32 bits, the odd
    /// epochs' in the high 32 bits. One word, so registering is one read-modify-write; a half
    /// counts threads reading at once, far below 2³².
    private let readers = Atomic<UInt64>(0)

    /// A reference to `object`, or (with `nil`) one that is never read or published to.
    init(_ object: Object?) {
        current = Atomic(object.map { Unmanaged.passRetained($0) })
    }

    deinit {
        // No reader can be in flight: each holds a strong reference to this value's owner.
        current.load(ordering: .relaxed)?.release()
    }

    /// Runs `body` with the current object, borrowed: no lock, no retain. See the type's
    /// documentation for what `body` must not do.
    @inline(__always)
    func read<Result>(_ body: (Object) -> Result) -> Result {
        let unit = register()
        defer { readers.wrappingSubtract(unit, ordering: .releasing) }
        return current.load(ordering: .sequentiallyConsistent)!._withUnsafeGuaranteedRef(body)
    }

    /// The current object, retained.
    @inline(__always)
    func load() -> Object {
        read { $0 }
    }

    /// Makes `object` current, and releases the previous one once no read can still use it.
    /// Callers serialise their calls (see the type's documentation).
    func publish(_ object: Object) {
        let previous = current.exchange(Unmanaged.passRetained(object), ordering: .sequentiallyConsistent)!
        // Relaxed: only publishers store the epoch, and the caller orders them.
        let closing = epoch.load(ordering: .relaxed)
        epoch.store(closing &+ 1, ordering: .sequentiallyConsistent)
        let shift = (closing & 1) * 32
        var spins = 0
        while readers.load(ordering: .sequentiallyConsistent) >> shift & 0xFFFF_FFFF != 0 {
            // A reader is between its load and its deregistration: nanoseconds, unless it was
            // preempted there, when spinning would only keep it off the processor.
            spins += 1
            if spins > 100 { sched_yield() }
        }
        previous.release()
    }

    /// Registers a reader in the half of the current epoch, and returns what it added there.
    @inline(__always)
    private func register() -> UInt64 {
        while true {
            let seen = epoch.load(ordering: .sequentiallyConsistent)
            let unit: UInt64 = 1 << ((seen & 1) * 32)
            readers.wrappingAdd(unit, ordering: .sequentiallyConsistent)
            // A publisher that advanced the epoch in between may already have seen this half
            // empty and stopped waiting: register again in the current half.
            if epoch.load(ordering: .sequentiallyConsistent) == seen { return unit }
            readers.wrappingSubtract(unit, ordering: .releasing)
        }
    }
}
