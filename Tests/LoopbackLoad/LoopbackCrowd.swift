#if os(Linux)
    import CEpoll
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thousands of loopback connections driven by one thread with epoll (poll(2) off Linux): the crowd the scale
/// tests and the benchmarks put in front of a server (event streams, slow-header clients), each
/// connection with what it has received so far. No Foundation, so that the benchmarks, which
/// measure the memory of Ensign alone, can use it.
///
/// Connections are made with blocking connects (loopback connects complete at once while the
/// server's backlog has room), then switched to non-blocking; ``pump(until:timeout:)`` reads
/// whatever arrives until every connection satisfies a condition.
public final class LoopbackCrowd {
    /// A connection could not be made or written to.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with errno.
        public var description: String
    }

    /// The connections' sockets.
    public private(set) var sockets: [Int32] = []
    /// What each connection received, at most the last 64 KiB.
    public private(set) var received: [[UInt8]] = []
    /// Whether each connection was closed by the server.
    public private(set) var isClosed: [Bool] = []
    private var lastSendToAll = ContinuousClock.now
    #if os(Linux)
        /// The epoll instance every connection is registered with, its index as the event's data.
        private let readiness = epoll_create1(Int32(EPOLL_CLOEXEC))
    #endif

    /// An empty crowd.
    public init() {}

    deinit {
        closeAll()
        #if os(Linux)
            close(readiness)
        #endif
    }

    /// Raises this process's soft descriptor limit to its hard limit (the crowd needs thousands).
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }

    /// Opens `count` connections to `127.0.0.1:port` and sends `request` on each. With
    /// `receiveBuffer`, each socket's receive buffer is made that small before it connects (a
    /// client that reads nothing then fills up soon).
    public func connect(_ count: Int, port: Int, sending request: String, receiveBuffer: Int? = nil) throws {
        let bytes = Array(request.utf8)
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno) after \(sockets.count)") }
            if var size = receiveBuffer.map(Int32.init) {
                _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                let error = errno
                close(descriptor)
                throw Failure(description: "connect: errno \(error) after \(sockets.count) connections")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            sockets.append(descriptor)
            received.append([])
            isClosed.append(false)
            #if os(Linux)
                var event = epoll_event()
                event.events = EPOLLIN.rawValue
                event.data.u64 = UInt64(sockets.count - 1)
                _ = epoll_ctl(readiness, EPOLL_CTL_ADD, descriptor, &event)
            #endif
            if !bytes.isEmpty { try send(bytes, on: sockets.count - 1) }
        }
    }

    /// Sends bytes on connection `index` (a few bytes never block on loopback).
    public func send(_ bytes: [UInt8], on index: Int) throws {
        guard !isClosed[index] else { return }
        let sent = bytes.withUnsafeBytes { Glibc.send(sockets[index], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0, errno == EPIPE || errno == ECONNRESET {
            isClosed[index] = true
            return
        }
        guard sent == bytes.count else { throw Failure(description: "send on connection \(index): errno \(errno)") }
    }

    /// Sends `bytes` on every open connection, unless it did so less than `interval` ago (a
    /// slow client's next header byte).
    public func sendToAll(_ bytes: [UInt8], atMostEvery interval: Duration = .zero) throws {
        let now = ContinuousClock.now
        guard now - lastSendToAll >= interval else { return }
        lastSendToAll = now
        for index in sockets.indices { try send(bytes, on: index) }
    }

    /// Reads what arrives until `isDone` holds for every connection (given what it received and
    /// whether it is closed) or `timeout` passes; `everyRound` runs between polls (slow clients
    /// send their next byte there). Returns how many connections are done.
    @discardableResult
    public func pump(
        timeout: Duration, everyRound: () throws -> Void = {},
        until isDone: (_ received: [UInt8], _ isClosed: Bool) -> Bool
    ) rethrows -> Int {
        let deadline = ContinuousClock.now + timeout
        var done = Array(repeating: false, count: sockets.count)
        var doneCount = 0
        func check(_ index: Int) {
            if !done[index], isDone(received[index], isClosed[index]) {
                done[index] = true
                doneCount += 1
            }
        }
        for index in sockets.indices { check(index) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        // Reads what one ready connection has; marks it closed at its end.
        func read(_ index: Int) {
            guard !isClosed[index] else { return }
            let count = chunk.withUnsafeMutableBytes { recv(sockets[index], $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received[index] += chunk.prefix(count)
                if received[index].count > 65536 { received[index].removeFirst(received[index].count - 65536) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                isClosed[index] = true
                #if os(Linux)
                    _ = epoll_ctl(readiness, EPOLL_CTL_DEL, sockets[index], nil)
                #endif
            }
            check(index)
        }
        #if os(Linux)
            // epoll, so that a round costs what is ready rather than every connection: with
            // thousands of streams, a poll(2) scan per round took the cores the server measured needs.
            var events = [epoll_event](repeating: epoll_event(), count: 1024)
            while doneCount < sockets.count, ContinuousClock.now < deadline {
                try everyRound()
                let ready = epoll_wait(readiness, &events, Int32(events.count), Self.waitMilliseconds(until: deadline))
                guard ready > 0 else { continue }
                for event in events.prefix(Int(ready)) { read(Int(event.data.u64)) }
            }
        #else
            var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            while doneCount < sockets.count, ContinuousClock.now < deadline {
                try everyRound()
                for index in descriptors.indices { descriptors[index].revents = 0 }
                guard poll(&descriptors, nfds_t(descriptors.count), Self.waitMilliseconds(until: deadline)) > 0 else {
                    continue
                }
                for index in descriptors.indices where descriptors[index].revents != 0 { read(index) }
            }
        #endif
        return doneCount
    }

    /// How long one wait may take: 50 ms at most (so `everyRound` runs often), and no longer
    /// than what is left before `deadline`.
    private static func waitMilliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(max(0, min(50, milliseconds)))
    }

    /// How many connections received `text` (anywhere in what they kept).
    public func count(receiving text: String) -> Int {
        received.count { $0.containsText(text) }
    }

    /// Forgets what every connection received so far.
    public func clearReceived() {
        for index in received.indices { received[index] = [] }
    }

    /// How many connections the server closed.
    public var closedCount: Int { isClosed.count { $0 } }

    /// Closes every connection.
    public func closeAll() {
        for socket in sockets {
            #if os(Linux)
                _ = epoll_ctl(readiness, EPOLL_CTL_DEL, socket, nil)
            #endif
            close(socket)
        }
        sockets = []
        received = []
        isClosed = []
    }
}

extension [UInt8] {
    /// Whether the bytes hold `text`'s UTF-8.
    public func containsText(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return indices.dropLast(needle.count - 1).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
