import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a thread blocked in `poll()`: the package's one wake-up pipe, non-blocking and closed
/// on exec, whose read end goes in the poll set (the control server's loop, a
/// ``Cancellation``, the remote source's refresh, a URLSession exchange's mailbox).
///
/// Any thread may signal; at most one byte is in flight between two drains, so a burst of
/// signals (thousands of change events) costs one `write`. A signal nobody drains stays
/// pending: the read end then stays readable for good, which is what a cancellation wants.
package final class WakeSignal: Sendable {
    /// The descriptor to poll for `POLLIN`.
    package let descriptor: Int32
    /// The write end; `nil` once closed, so a late signal from another thread never writes
    /// to a descriptor number the process has since reused.
    private let writeDescriptor: LockedState<Int32?>
    private let isPending = Atomic<Bool>(false)

    /// Makes the pipe, or throws when the process is out of descriptors.
    package init() throws(SystemCallError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SystemCallError("pipe") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        descriptor = descriptors[0]
        writeDescriptor = LockedState(descriptors[1])
    }

    /// Makes the pipe for an owner that has no way to report failure (a client's
    /// cancellation): a process out of descriptors stops.
    package static func make() -> WakeSignal {
        do {
            return try WakeSignal()
        } catch {
            preconditionFailure(error.description)
        }
    }

    deinit {
        close()
    }

    /// Makes the next (or current) `poll()` return. Never blocks.
    package func signal() {
        guard !isPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writeDescriptor.withLock { descriptor in
            guard let descriptor else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    /// Whether a signal is pending (sent and not yet drained).
    package var isSignalled: Bool { isPending.load(ordering: .acquiring) }

    /// Consumes the pending signal; call it before handling what the signal announced.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        isPending.store(false, ordering: .releasing)
    }

    /// Waits until this signal or `other` is pending, or `deadline` passes (never, when `nil`);
    /// returns whether a signal ended the wait. Drains nothing.
    package func wait(until deadline: ContinuousClock.Instant?, or other: WakeSignal? = nil) -> Bool {
        while true {
            if isSignalled || other?.isSignalled == true { return true }
            let timeout = Deadline.milliseconds(until: deadline)
            if timeout == 0 { return false }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let other { descriptors.append(pollfd(fd: other.descriptor, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
        }
    }

    /// Closes both ends; later signals do nothing. Call it once the polling thread has
    /// stopped, where descriptors must be back before the owner goes (a stopped server);
    /// otherwise the pipe closes when the signal is freed.
    package func close() {
        // The write end, taken under the lock, says whether the pipe is still open.
        guard let writeEnd = writeDescriptor.withLock({ $0.take() }) else { return }
        _ = systemClose(writeEnd)
        _ = systemClose(descriptor)
    }
}

/// `close(2)`, for types that have a `close()` method of their own.
package func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
