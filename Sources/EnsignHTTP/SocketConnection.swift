#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection over POSIX sockets: connect with a timeout, and send and receive with
/// deadlines. Every wait polls the socket together with a ``Cancellation``, so stopping
/// interrupts it at once. The only place in the HTTP client that touches sockets.
///
/// Not thread-safe: one thread uses a connection at a time.
package final class SocketConnection: HTTPByteSource {
    package private(set) var descriptor: Int32
    package let cancellation: Cancellation?

    private init(descriptor: Int32, cancellation: Cancellation?) {
        self.descriptor = descriptor
        self.cancellation = cancellation
    }

    deinit { close() }

    /// Connects to `host:port`, trying each resolved address until one accepts within `timeout`.
    package static func connect(
        host: String, port: Int, timeout: Duration, cancellation: Cancellation?
    ) throws(HTTPError) -> SocketConnection {
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolvable(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = HTTPError.connectFailed("no address for \(host)")
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            address = current.pointee.ai_next
            do {
                return try connect(to: current.pointee, deadline: deadline, cancellation: cancellation)
            } catch {
                if error == .cancelled { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(
        to address: addrinfo, deadline: ContinuousClock.Instant, cancellation: Cancellation?
    ) throws(HTTPError) -> SocketConnection {
        #if os(Linux)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let descriptor = socket(address.ai_family, type, address.ai_protocol)
        guard descriptor >= 0 else { throw .connectFailed(Self.errorText()) }
        let connection = SocketConnection(descriptor: descriptor, cancellation: cancellation)
        #if !os(Linux)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var noSignal: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        connection.configureTCP()
        if systemConnect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw .connectFailed(Self.errorText()) }
            try connection.wait(for: Int16(POLLOUT), deadline: deadline, while: "connecting")
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { throw .connectFailed(String(cString: strerror(error))) }
        }
        return connection
    }

    /// No Nagle delay (requests are small and latency matters), and TCP keepalive so a watch
    /// on a silent connection notices a dead peer within about 25 seconds.
    private func configureTCP() {
        var on: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, size)
        setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &on, size)
        #if os(Linux)
            var idle: Int32 = 10
            var interval: Int32 = 5
            var count: Int32 = 3
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, size)
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, size)
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, size)
        #endif
    }

    /// Sends every byte before `deadline`.
    package func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), deadline: deadline, while: "sending the request")
            } else {
                throw .connectionClosed("send failed: \(Self.errorText())")
            }
        }
    }

    /// Receives up to 64 KiB, appending them to `buffer`; returns how many (0 when the peer
    /// closed the connection).
    package func receive(
        into buffer: inout [UInt8], deadline: ContinuousClock.Instant?, while activity: String
    ) throws(HTTPError) -> Int {
        let maximum = 65536
        while true {
            let received = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximum) { scratch in
                let count = recv(descriptor, scratch.baseAddress!, maximum, 0)
                if count > 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<count])) }
                return count
            }
            if received >= 0 { return received }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw .connectionClosed("receive failed: \(Self.errorText())")
            }
            try wait(for: Int16(POLLIN), deadline: deadline, while: activity)
        }
    }

    /// Waits until the socket is ready for `events`, the deadline passes, or the exchange is cancelled.
    private func wait(for events: Int16, deadline: ContinuousClock.Instant?, while activity: String) throws(HTTPError) {
        while true {
            if cancellation?.isCancelled == true { throw .cancelled }
            var descriptors = [pollfd(fd: descriptor, events: events, revents: 0)]
            if let cancellation {
                descriptors.append(pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0))
            }
            let timeout = Deadline.milliseconds(until: deadline)
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0, errno == EINTR { continue }
            if descriptors.count > 1, descriptors[1].revents != 0 { throw .cancelled }
            if descriptors[0].revents != 0 { return }
            if ready == 0, timeout >= 0 { throw .timedOut(activity) }
        }
    }

    /// Closes the socket; later calls do nothing.
    package func close() {
        guard descriptor >= 0 else { return }
        systemClose(descriptor)
        descriptor = -1
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

// The C calls whose names `SocketConnection`'s own methods shadow inside the class.

private func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t)
    -> Int32
{
    connect(descriptor, address, length)
}

private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if os(Linux)
        send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        send(descriptor, bytes, count, 0)
    #endif
}

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
