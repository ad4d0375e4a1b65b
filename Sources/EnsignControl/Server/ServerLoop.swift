import Ensign
import EnsignSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server thread shares with the rest of the process: the app's context, the
/// options, the wake-up pipe and the watch hub. Everything else belongs to ``ServerLoop``.
final class ServerCore: Sendable {
    let handler: RequestHandler
    let options: ControlServerOptions
    let wake: WakeSignal
    let hub: WatchHub
    let isStopping = Atomic<Bool>(false)
    let connectionCount = Atomic<Int>(0)

    init(context: AppContext, options: ControlServerOptions, wake: WakeSignal) {
        self.handler = RequestHandler(context: context, options: options, pid: getpid())
        self.options = options
        self.wake = wake
        self.hub = WatchHub(wake: wake)
    }
}

/// The server thread's event loop: one `poll()` over the listening socket, the wake-up
/// pipe and every connection, all non-blocking.
///
/// Requests are answered on this thread, one line at a time; a client that does not read
/// its replies stops being read until it does (its output is bounded by ``outputHighWater``).
/// Watch events come from ``WatchHub`` and are moved into a connection's output only while
/// that output is below the same bound, so a stalled watcher costs the app nothing and
/// the others nothing: its own queue overflows and drops.
final class ServerLoop {
    static let outputHighWater = 1 << 16
    static let closeGracePeriod: Duration = .seconds(2)
    static let readChunk = 1 << 16
    /// How long a connection must have been quiet before a newcomer may take its place.
    static let evictionIdleTime: Duration = .milliseconds(500)

    private let core: ServerCore
    private let listener: Int32
    private let socketPath: String
    private let socketIdentity: FileIdentity?
    private let user = geteuid()
    private let clock = ContinuousClock()
    private var connections: [ServerConnection] = []
    private var observation: ObservationToken?
    private var readBuffer = [UInt8](repeating: 0, count: ServerLoop.readChunk)
    private var refusalLog = RateLimitedLog()
    private var busyLog = RateLimitedLog()

    init(core: ServerCore, listener: Int32, socketPath: String, socketIdentity: FileIdentity?) {
        self.core = core
        self.listener = listener
        self.socketPath = socketPath
        self.socketIdentity = socketIdentity
    }

    /// Runs until the server is stopped, then closes every descriptor and removes the socket.
    func run() {
        var descriptors: [pollfd] = []
        while !core.isStopping.load(ordering: .acquiring) {
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: core.wake.descriptor, events: Int16(POLLIN), revents: 0))
            for connection in connections {
                var events: Int32 = 0
                if connection.isReadable, connection.pendingOutput < Self.outputHighWater { events |= POLLIN }
                if connection.pendingOutput > 0 { events |= POLLOUT }
                descriptors.append(pollfd(fd: connection.descriptor, events: Int16(events), revents: 0))
            }
            let polled = connections
            let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeout(now: clock.now))
            if ready < 0, errno != EINTR {
                core.options.log("poll failed: \(SystemCallError("poll")); the control server stops")
                break
            }
            if descriptors[1].revents != 0 { core.wake.drain() }
            if descriptors[0].revents & Int16(POLLIN) != 0 { acceptPending() }
            for (index, connection) in polled.enumerated() {
                let events = Int32(descriptors[index + 2].revents)
                if events & (POLLIN | POLLHUP | POLLERR) != 0, connection.isReadable { read(connection) }
                if events & POLLNVAL != 0 { connection.isFinished = true }
            }
            serviceConnections(now: clock.now)
        }
        shutDown()
    }

    // MARK: Connections

    private func acceptPending() {
        while let descriptor = UnixSocket.accept(from: listener) {
            let peer = UnixSocket.peerCredentials(of: descriptor)
            if let refusal = refusal(of: peer) {
                if let line = refusalLog.line(refusal, now: clock.now) { core.options.log(line) }
                refuse(descriptor, ControlError(.forbidden, "this app's control server serves only its own user"))
                continue
            }
            guard connections.count < core.options.maximumConnections || evictIdlest() else {
                let message = "refused a connection: already \(connections.count) connections (maximumConnections)"
                if let line = busyLog.line(message, now: clock.now) { core.options.log(line) }
                refuse(
                    descriptor,
                    ControlError(.busy, "the app already has \(connections.count) control connections; try again later")
                )
                continue
            }
            connections.append(ServerConnection(descriptor: descriptor, peer: peer, now: clock.now))
        }
        core.connectionCount.store(connections.count, ordering: .relaxed)
    }

    /// Makes room for a new connection by closing the one idle the longest, if one has been
    /// idle for ``evictionIdleTime`` (watching connections are never idle: they wait for
    /// events). Without this, clients that connect and linger would lock the CLI out until
    /// the idle timeout. Returns whether a connection was closed.
    private func evictIdlest() -> Bool {
        let now = clock.now
        let idle = connections.filter {
            $0.watch == nil && $0.closeDeadline == nil && !$0.isFinished && $0.pendingOutput == 0
                && !$0.isHoldingInput && now - $0.lastActivity >= Self.evictionIdleTime
        }
        guard let idlest = idle.min(by: { $0.lastActivity < $1.lastActivity }) else { return false }
        let error = ControlError(
            .idleTimeout, "the connection was idle and the app's connections are all in use; the server closes it")
        idlest.send(ControlReply(id: .none, outcome: .failure(error)).json)
        idlest.flush()
        idlest.isFinished = true
        connections.removeAll { $0 === idlest }
        stopWatching(idlest)
        _ = systemClose(idlest.descriptor)
        return true
    }

    /// Why a peer is refused, as a log line; `nil` when it is this user or root.
    private func refusal(of peer: PeerCredentials?) -> String? {
        guard let peer else { return "refused a connection: the peer's credentials are unavailable" }
        guard peer.uid != user, peer.uid != 0 else { return nil }
        let process = peer.pid.map { " (pid \($0))" } ?? ""
        return "refused a connection from uid \(peer.uid)\(process): only uid \(user) and root are served"
    }

    /// Sends one error line without waiting and closes.
    private func refuse(_ descriptor: Int32, _ error: ControlError) {
        let line = Array((ControlReply(id: .none, outcome: .failure(error)).json.jsonText + "\n").utf8)
        _ = line.withUnsafeBytes { try? UnixSocket.send(descriptor, $0) }
        _ = systemClose(descriptor)
    }

    private func read(_ connection: ServerConnection) {
        // Read at most a few chunks per turn, so one busy client cannot starve the others.
        for _ in 0..<4 {
            let received: Int?
            do {
                received = try readBuffer.withUnsafeMutableBytes { (buffer) throws(SystemCallError) in
                    try UnixSocket.receive(connection.descriptor, buffer)
                }
            } catch {
                connection.isFinished = true
                return
            }
            guard let received else { return }
            if received == 0 {
                endOfInput(connection)
                return
            }
            readBuffer.withUnsafeBytes { buffer in
                self.received(UnsafeRawBufferPointer(rebasing: buffer[..<received]), on: connection)
            }
            if !connection.isReadable || connection.pendingOutput >= Self.outputHighWater { return }
        }
    }

    /// Bytes read from `connection`'s socket: frames and answers its complete lines.
    func received(_ bytes: UnsafeRawBufferPointer, on connection: ServerConnection) {
        connection.lastActivity = clock.now
        connection.receive(bytes)
        processInput(connection)
    }

    /// The client closed its side: the lines received are still answered (as the output
    /// drains, like any others), then a last line without a newline, then the connection
    /// closes once the replies are sent.
    func endOfInput(_ connection: ServerConnection) {
        connection.hasInputEnded = true
        processInput(connection)
    }

    /// Answers the complete lines received, while the connection's output has room; once
    /// every complete line is answered, deals with the line still arriving.
    func processInput(_ connection: ServerConnection) {
        connection.isHoldingInput = false
        while !connection.isReadClosed {
            guard connection.pendingOutput < Self.outputHighWater else {
                connection.isHoldingInput = true
                return
            }
            guard let line = connection.nextLine() else {
                endOfCompleteLines(connection)
                return
            }
            answer(line, on: connection)
        }
    }

    /// Every complete line is answered: what is left is a line still arriving, or the last
    /// line of a client that closed its side.
    ///
    /// Only this line is measured against the limit, never lines held back while the output
    /// was full (they are answered, and measured, in turn). A last CR does not count: it may
    /// be the start of the line's CRLF.
    private func endOfCompleteLines(_ connection: ServerConnection) {
        if connection.hasInputEnded {
            let rest = connection.takeRemainingInput()
            if !rest.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                answer(rest, on: connection)
            }
            connection.close(after: Self.closeGracePeriod, now: clock.now)
            return
        }
        let partial = connection.unreadInput
        guard partial.count - (partial.last == 0x0D ? 1 : 0) > ControlProtocol.maximumLineLength else { return }
        let error = ControlError(
            .tooLarge,
            "a request line is longer than \(ControlProtocol.maximumLineLength) bytes; the connection is closed")
        connection.send(ControlReply(id: .none, outcome: .failure(error)).json)
        connection.close(after: Self.closeGracePeriod, now: clock.now)
    }

    private func answer(_ line: ArraySlice<UInt8>, on connection: ServerConnection) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let reply: ControlReply
        do {
            let request = try ControlRequest.parse(line: line)
            reply = ControlReply(id: request.id, outcome: perform(request, on: connection))
        } catch {
            reply = ControlReply(id: error.id, outcome: .failure(error.error))
            // An over-long line closes the connection however it arrived: in pieces (measured
            // while it arrives) or whole in one read, newline included.
            if error.error.code == .tooLarge {
                connection.send(reply.json)
                connection.close(after: Self.closeGracePeriod, now: clock.now)
                return
            }
        }
        connection.send(reply.json)
    }

    /// Answers `request` through the handler, lending it this connection's part of the loop.
    private func perform(_ request: ControlRequest, on connection: ServerConnection) -> Result<JSONValue, ControlError>
    {
        let lent = LentConnection(loop: self, connection: connection, requestID: request.id)
        do throws(ControlError) {
            return .success(try core.handler.result(for: request.operation, on: lent))
        } catch {
            return .failure(error)
        }
    }

    /// One connection of this loop, as a request sees it.
    private struct LentConnection: RequestConnection {
        let loop: ServerLoop
        let connection: ServerConnection
        let requestID: ControlRequestID

        var connectionCount: Int { loop.connections.count }
        var otherWatcherCount: Int { loop.connections.count { $0.watch != nil && $0 !== connection } }
        var isWatching: Bool { connection.watch != nil }
        func startWatching(keys: Set<String>?) { loop.startWatching(connection, id: requestID, keys: keys) }
        func stopWatching() { loop.stopWatching(connection) }
    }

    // MARK: Watching

    private func startWatching(_ connection: ServerConnection, id: ControlRequestID, keys: Set<String>?) {
        stopWatching(connection)
        let outbox = WatchOutbox(watchID: id, keys: keys, capacity: core.options.watchQueueCapacity)
        connection.watch = outbox
        if core.hub.add(outbox) {
            let hub = core.hub
            observation = core.handler.context.observeAll(label: "ensign control: watch") { hub.publish($0) }
        }
    }

    func stopWatching(_ connection: ServerConnection) {
        guard let outbox = connection.watch else { return }
        connection.watch = nil
        if core.hub.remove(outbox) {
            observation?.cancel()
            observation = nil
        }
    }

    /// Moves queued watch events into each connection's output (while it has room), sends
    /// what can be sent, and closes finished, timed-out and idle connections.
    private func serviceConnections(now: ContinuousClock.Instant) {
        for connection in connections where !connection.isFinished {
            service(connection) { $0.flush() }
            if let deadline = connection.closeDeadline, connection.pendingOutput == 0 || now >= deadline {
                connection.isFinished = true
            } else if connection.watch == nil, connection.closeDeadline == nil,
                now - connection.lastActivity >= core.options.idleTimeout
            {
                let error = ControlError(
                    .idleTimeout, "the connection was idle for \(core.options.idleTimeout); the server closes it")
                connection.send(ControlReply(id: .none, outcome: .failure(error)).json)
                connection.flush()
                connection.close(after: Self.closeGracePeriod, now: now)
            }
        }
        for connection in connections where connection.isFinished {
            stopWatching(connection)
            _ = systemClose(connection.descriptor)
        }
        connections.removeAll { $0.isFinished }
        core.connectionCount.store(connections.count, ordering: .relaxed)
    }

    /// Moves queued watch events into `connection`'s output and sends it with `flush`, then
    /// answers the lines held back while the output was full, for as long as `flush` makes
    /// room for their replies.
    ///
    /// Held-back lines are answered here, not when more input arrives: a client that sent
    /// all its requests waits for their replies and sends nothing more.
    func service(_ connection: ServerConnection, flush: (ServerConnection) -> Void) {
        deliverWatchEvents(to: connection)
        if connection.pendingOutput > 0 { flush(connection) }
        // The flush may have made room for events still queued. Nothing else would wake the
        // loop for them: the output is no longer full, so the socket is not polled for
        // writing, and the app may not change again. A watcher that stopped reading and
        // resumed would otherwise get nothing more until an unrelated request came.
        if let outbox = connection.watch, !outbox.isEmpty, connection.pendingOutput < Self.outputHighWater {
            core.wake.signal()
        }
        while !connection.isFinished, !connection.isReadClosed, connection.isHoldingInput,
            connection.pendingOutput < Self.outputHighWater
        {
            processInput(connection)
            if connection.pendingOutput > 0 { flush(connection) }
        }
    }

    /// Moves queued watch events into `connection`'s output while it has room.
    func deliverWatchEvents(to connection: ServerConnection) {
        guard let outbox = connection.watch, connection.pendingOutput < Self.outputHighWater else { return }
        for item in outbox.take(upTo: 256) {
            switch item {
            case .change(let batch, let time):
                connection.send(ControlEvent.change(watch: outbox.watchID, ChangeEventReport(batch, time: time)).json)
            case .dropped(let count):
                connection.send(ControlEvent.dropped(watch: outbox.watchID, count: count).json)
            }
        }
        if !outbox.isEmpty { core.wake.signal() }
    }

    /// Milliseconds until the nearest idle or closing deadline; -1 (wait for an event) when none.
    private func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        var nearest: ContinuousClock.Instant?
        for connection in connections {
            let deadline =
                connection.closeDeadline
                ?? (connection.watch == nil ? connection.lastActivity + core.options.idleTimeout : nil)
            if let deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
        }
        guard let nearest else { return -1 }
        return Int32(clamping: max(0, (nearest - now).millisecondsRoundedUp))
    }

    // MARK: Shutting down

    private func shutDown() {
        observation?.cancel()
        observation = nil
        for connection in connections {
            if let outbox = connection.watch { _ = core.hub.remove(outbox) }
            _ = systemClose(connection.descriptor)
        }
        connections.removeAll()
        core.connectionCount.store(0, ordering: .relaxed)
        _ = systemClose(listener)
        // Remove the socket only if it is still the one this server created.
        if let socketIdentity, FileIdentity(path: socketPath) == socketIdentity { _ = unlink(socketPath) }
        core.wake.close()
    }
}

/// A file's device and inode: tells whether a path still names the same file.
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
