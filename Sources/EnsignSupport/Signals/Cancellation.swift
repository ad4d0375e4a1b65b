/// A one-way switch that wakes every blocking wait of a client that blocks (the fleet and
/// remote sources): socket reads and writes poll its ``descriptor`` together with the socket,
/// and backoff waits sleep on it, so ``cancel()`` interrupts them at once instead of after a
/// timeout.
///
/// A ``WakeSignal`` that is never drained: once cancelled, its descriptor stays readable.
package final class Cancellation: Sendable {
    /// The signal waits poll.
    package let signal = WakeSignal.make()

    package init() {}

    /// The read end, for a poll set of the caller's own (libcurl's).
    package var descriptor: Int32 { signal.descriptor }

    /// Whether ``cancel()`` has been called.
    package var isCancelled: Bool { signal.isSignalled }

    /// Wakes every current and future wait; later calls do nothing.
    package func cancel() {
        signal.signal()
    }

    /// How a ``sleep(for:orUntil:)`` ended.
    package enum SleepEnd: Sendable, Equatable {
        /// The duration passed.
        case elapsed
        /// The other signal came (and was drained).
        case signalled
        /// ``cancel()`` was called.
        case cancelled
    }

    /// Waits for `duration` unless cancelled first; returns whether it was cancelled.
    package func sleep(for duration: Duration) -> Bool {
        sleep(for: duration, orUntil: nil) == .cancelled
    }

    /// Waits for `duration`, `other` (a refresh request, which the wait drains) or a
    /// cancellation, whichever comes first; a cancellation wins over a signal that came with it.
    package func sleep(for duration: Duration, orUntil other: WakeSignal?) -> SleepEnd {
        _ = signal.wait(until: ContinuousClock.now + duration, or: other)
        if isCancelled { return .cancelled }
        guard let other, other.isSignalled else { return .elapsed }
        other.drain()
        return .signalled
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
