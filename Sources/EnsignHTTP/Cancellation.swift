import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-way switch that wakes every blocking wait of a client that blocks (the fleet and remote sources): socket reads and
/// writes poll its descriptor together with the socket, and backoff waits poll it alone, so
/// ``cancel()`` interrupts them at once instead of after a timeout.
///
/// It is a pipe: cancelling writes one byte, which makes the read end readable for good.
package final class Cancellation: Sendable {
    /// The read end, polled by waits.
    package let descriptor: Int32
    private let writeEnd: Int32
    private let cancelled = LockedState(false)

    package init() {
        (descriptor, writeEnd) = NonBlockingPipe.make()
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Whether ``cancel()`` has been called.
    package var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Wakes every current and future wait; later calls do nothing.
    package func cancel() {
        let first = cancelled.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits for `duration` unless cancelled first; returns whether it was cancelled.
    package func sleep(for duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while !isCancelled {
            let remaining = Deadline.milliseconds(until: deadline)
            if remaining == 0 { return false }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 1, remaining)
        }
        return true
    }
}

/// Converts deadlines into `poll(2)` timeouts.
package enum Deadline {
    /// Milliseconds from now until `deadline` (rounded up, 0 once it has passed), or -1
    /// (wait without limit) when there is no deadline.
    package static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        return Int32(clamping: remaining.millisecondsRoundedUp)
    }
}
