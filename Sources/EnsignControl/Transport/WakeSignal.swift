import Ensign
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a thread blocked in `poll()`: a non-blocking pipe whose read end is in the poll
/// set. Any thread may signal; at most one byte is in flight between two drains, so a burst
/// of signals (thousands of change events) costs one `write`.
final class WakeSignal: Sendable {
    /// The descriptor to poll for `POLLIN`.
    let readDescriptor: Int32
    /// The write end; `nil` once closed, so a late signal from an app thread never writes
    /// to a descriptor number the process has since reused.
    private let writeDescriptor: LockedState<Int32?>
    private let isPending = Atomic<Bool>(false)

    init() throws(SystemCallError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SystemCallError("pipe") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            UnixSocket.setNonBlocking(descriptor)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = LockedState(descriptors[1])
    }

    /// Makes the next (or current) `poll()` return. Never blocks.
    func signal() {
        guard !isPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writeDescriptor.withLock { descriptor in
            guard let descriptor else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    /// Consumes the pending signal; call it before handling what the signal announced.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        isPending.store(false, ordering: .releasing)
    }

    /// Closes both ends. Call it once, after the polling thread has stopped.
    func close() {
        writeDescriptor.withLock { descriptor in
            if let descriptor { _ = systemClose(descriptor) }
            descriptor = nil
        }
        _ = systemClose(readDescriptor)
    }
}

/// `close(2)`, for types that have a `close()` method of their own.
func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
