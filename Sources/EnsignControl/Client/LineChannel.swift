import Ensign
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client's end of a connection: sends lines, and reads lines with a timeout.
final class LineChannel: @unchecked Sendable {
    // @unchecked Sendable, proven by its two owners: `ControlClient` only touches it inside
    // its `LockedState`, `ControlWatch` only inside its read lock (or from its one reader
    // thread); `shutDown()`, the one call made from other threads, is a thread-safe system
    // call that touches no stored property.
    /// The longest line a client accepts from a server (a `list` of a very large app).
    static let maximumLineLength = 256 << 20

    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var isClosed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Connects to the socket at `path`.
    static func connect(to path: String) throws(ControlClientError) -> LineChannel {
        let owner = try ServerTrust.check(socketAt: path)
        let channel: LineChannel
        do {
            channel = LineChannel(descriptor: try UnixSocket.connect(to: path))
        } catch {
            let hint =
                error.code == ECONNREFUSED || error.code == ENOENT
                ? "; the app is not running (run `ensign ps` to list running apps)" : ""
            throw .cannotConnect(path: path, reason: error.reason + hint)
        }
        try ServerTrust.check(server: channel.descriptor, at: path, expectedOwner: owner)
        return channel
    }

    /// Sends one line (a newline is added).
    func send(_ line: String) throws(ControlClientError) {
        do {
            try UnixSocket.sendAll(descriptor, Array((line + "\n").utf8))
        } catch {
            throw .disconnected(error.reason)
        }
    }

    /// Waits for the next line; `nil` when `timeout` passes first or a signal interrupts
    /// the wait. A `nil` timeout waits indefinitely.
    func receiveLine(timeout: Duration?) throws(ControlClientError) -> [UInt8]? {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                }
                return line
            }
            guard buffer.count - start <= Self.maximumLineLength else {
                throw .protocolViolation("a line longer than \(Self.maximumLineLength) bytes")
            }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let wait = deadline.map { Self.milliseconds(until: $0, now: clock.now) } ?? -1
            if wait == 0 { return nil }
            let ready = poll(&descriptors, 1, wait)
            if ready < 0 {
                if errno == EINTR { return nil }
                throw .disconnected(SystemCallError("poll").reason)
            }
            if ready == 0 { continue }
            try fill()
        }
    }

    private func fill() throws(ControlClientError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let outcome = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in try UnixSocket.receive(descriptor, raw) }
        }
        let received: Int?
        switch outcome {
        case .success(let count): received = count
        case .failure(let error): throw .disconnected(error.reason)
        }
        guard let received else { return }
        guard received > 0 else { throw .disconnected("end of stream") }
        buffer.append(contentsOf: chunk[..<received])
    }

    /// Ends the connection in both directions without closing the descriptor, which wakes
    /// a thread blocked reading it.
    func shutDown() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = systemClose(descriptor)
    }

    deinit { close() }

    private static func milliseconds(until deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now).millisecondsRoundedUp)
    }
}
