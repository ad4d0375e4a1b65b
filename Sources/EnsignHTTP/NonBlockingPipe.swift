#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The two ends of a new pipe, both non-blocking and closed on exec: the wake-up channel of
/// ``Cancellation`` and of the remote source's refresh signal (a byte written wakes a `poll`).
package enum NonBlockingPipe {
    /// Makes the pipe; the caller closes both ends.
    package static func make() -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        let result = ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
        precondition(result == 0, "pipe() failed: \(String(cString: strerror(errno)))")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }
}
