import EnsignHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes the remote source's loop out of a poll or backoff wait, so that it fetches at once:
/// what ``OFREPRemoteSource/refresh()`` signals when an app returns to the foreground (ADR
/// 0010). A pipe, like ``Cancellation``: a signal writes a byte, which the wait drains.
final class RefreshSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        (readEnd, writeEnd) = NonBlockingPipe.make()
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the current or next wait (signals before it starts are kept, several as one).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)  // a full pipe already holds a signal
    }

    /// How a wait ended.
    enum Wake {
        case elapsed
        case signalled
        case cancelled
    }

    /// Waits for `duration`, a signal or `cancellation`, whichever comes first.
    func wait(for duration: Duration, cancellation: Cancellation) -> Wake {
        let deadline = ContinuousClock.now + duration
        while !cancellation.isCancelled {
            let remaining = Deadline.milliseconds(until: deadline)
            if remaining == 0 { return .elapsed }
            var descriptors = [
                pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&descriptors, 2, remaining)
            if descriptors[1].revents != 0, !cancellation.isCancelled {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(readEnd, &drained, drained.count) > 0 {}
                return .signalled
            }
        }
        return .cancelled
    }
}
