import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thin C boundary for Unix domain sockets: every descriptor it returns is
/// close-on-exec, and no call on it raises `SIGPIPE` (`MSG_NOSIGNAL` on Linux,
/// `SO_NOSIGPIPE` on Apple platforms).
enum UnixSocket {
    /// The longest socket path the system accepts, in bytes.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    #if os(Linux)
        private static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let streamType = SOCK_STREAM
        private static let sendFlags: Int32 = 0
    #endif

    /// A listening socket bound at `path`, non-blocking. The caller has removed any stale file.
    static func listen(at path: String, backlog: Int32 = 64) throws(SystemCallError) -> Int32 {
        let descriptor = try makeSocket()
        do throws(SystemCallError) {
            try withAddress(of: path) { (address, length) throws(SystemCallError) in
                guard bind(descriptor, address, length) == 0 else { throw SystemCallError("bind", path) }
            }
            guard systemListen(descriptor, backlog) == 0 else { throw SystemCallError("listen", path) }
            setNonBlocking(descriptor)
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// A connected, blocking socket to the server at `path`.
    static func connect(to path: String) throws(SystemCallError) -> Int32 {
        let descriptor = try makeSocket()
        do throws(SystemCallError) {
            try withAddress(of: path) { (address, length) throws(SystemCallError) in
                while true {
                    if systemConnect(descriptor, address, length) == 0 { return }
                    if errno != EINTR { throw SystemCallError("connect to", path) }
                }
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor; `nil`
    /// when none is pending (or the accept failed: the peer may have left already).
    static func accept(from listener: Int32) -> Int32? {
        while true {
            let descriptor = systemAccept(listener, nil, nil)
            if descriptor >= 0 {
                configure(descriptor)
                setNonBlocking(descriptor)
                return descriptor
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// The user and process on the other end of a connected socket.
    static func peerCredentials(of descriptor: Int32) -> PeerCredentials? {
        #if os(Linux)
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc's Swift module does not
            // export it (it needs _GNU_SOURCE), so read the three 32-bit fields directly.
            var fields: [Int32] = [0, 0, 0]
            var length = socklen_t(MemoryLayout<Int32>.size * 3)
            let result = fields.withUnsafeMutableBytes {
                getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length)
            }
            guard result == 0 else { return nil }
            return PeerCredentials(uid: uid_t(bitPattern: fields[1]), pid: fields[0])
        #else
            var uid = uid_t()
            var gid = gid_t()
            guard getpeereid(descriptor, &uid, &gid) == 0 else { return nil }
            return PeerCredentials(uid: uid, pid: nil)
        #endif
    }

    /// Sends bytes from `buffer`; the count sent, or `nil` when the socket would block.
    static func send(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let sent = systemSend(descriptor, buffer.baseAddress, buffer.count, sendFlags)
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw SystemCallError("send")
        }
    }

    /// Receives into `buffer`; the count received (0 at the end of the stream), or `nil`
    /// when nothing is available yet.
    static func receive(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let received = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if received >= 0 { return received }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw SystemCallError("recv")
        }
    }

    /// Sends all of `bytes` on a blocking socket.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemCallError) in
                    try send(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                }
            }
            guard let sent = try outcome.get() else { throw SystemCallError("send", code: EAGAIN) }
            offset += sent
        }
    }

    static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    private static func makeSocket() throws(SystemCallError) -> Int32 {
        let descriptor = socket(AF_UNIX, streamType, 0)
        guard descriptor >= 0 else { throw SystemCallError("socket") }
        configure(descriptor)
        return descriptor
    }

    /// Close-on-exec (where the socket call could not set it) and no `SIGPIPE`.
    private static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if !os(Linux)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func withAddress(
        of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else { throw SystemCallError("bind", path, code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        try withUnsafePointer(to: &address) { (pointer) throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(SystemCallError) in
                try body(address, length)
            }
        }
    }
}

// The system calls whose names `UnixSocket`'s own methods shadow.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
private func systemAccept(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
) -> Int32 {
    accept(descriptor, address, length)
}
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}

/// Who is on the other end of a connection.
struct PeerCredentials: Sendable, Hashable {
    /// The peer's user.
    var uid: uid_t
    /// The peer's process, where the system tells it (Linux).
    var pid: pid_t?
}
