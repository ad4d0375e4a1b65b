import Ensign
import EnsignHTTP
import EnsignSupport
import EnsignTestSupport
import Foundation

@testable import EnsignFleet

/// A loopback TCP proxy in front of one etcd member, to cut the network between an app and
/// etcd while etcd keeps running: ``cut()`` closes every proxied connection and refuses new
/// ones until ``restore()``.
///
/// Every descriptor is used on the proxy's own thread only. The control calls change a shared
/// state and wait until the thread (which looks at it at least every 10 ms) has acted on it.
final class TCPProxy: Sendable {
    let port: Int
    private let control = LockedCondition(Control())
    private let thread: JoinableThread

    fileprivate struct Control {
        var isCut = false
        var isStopping = false
        /// Bumped by each command; the thread copies it into `done` once it has acted.
        var requested = 0
        var done = 0
        var acceptedConnections = 0
    }

    init(upstreamPort: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Loopback.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var on: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else {
            close(listener)
            throw EtcdTestError("the proxy cannot listen")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let control = self.control
        thread = JoinableThread(name: "tcp-proxy") {
            var loop = ProxyLoop(listener: listener, upstreamPort: upstreamPort)
            loop.run(control: control)
        }
    }

    deinit { stop() }

    var url: String { "http://127.0.0.1:\(port)" }

    /// Closes every proxied connection and refuses new ones (they are accepted and closed at once).
    func cut() { command { $0.isCut = true } }

    /// Proxies new connections again.
    func restore() { command { $0.isCut = false } }

    /// How many connections the proxy has accepted so far.
    var acceptedConnections: Int { control.withLock { $0.acceptedConnections } }

    /// Closes everything and ends the thread; later calls do nothing.
    func stop() {
        let first = control.withLock { control in
            defer { control.isStopping = true }
            return !control.isStopping
        }
        if first { thread.join() }
    }

    private func command(_ change: (inout Control) -> Void) {
        var target = 0
        control.update { control in
            change(&control)
            control.requested += 1
            target = control.requested
        }
        _ = control.wait(until: { $0.done >= target }, timeout: .seconds(5))
    }
}

/// The proxy thread's loop: accept, connect upstream, copy bytes both ways.
private struct ProxyLoop {
    let listener: Int32
    let upstreamPort: Int
    /// Pairs of (client, upstream) descriptors.
    var pairs: [(Int32, Int32)] = []

    init(listener: Int32, upstreamPort: Int) {
        self.listener = listener
        self.upstreamPort = upstreamPort
    }

    mutating func run(control: LockedCondition<TCPProxy.Control>) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let (isCut, isStopping, requested) = control.withLock { ($0.isCut, $0.isStopping, $0.requested) }
            if isStopping || isCut { closeAll() }
            if isStopping { break }
            control.update { $0.done = requested }
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for (client, upstream) in pairs {
                descriptors.append(pollfd(fd: client, events: Int16(POLLIN), revents: 0))
                descriptors.append(pollfd(fd: upstream, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&descriptors, nfds_t(descriptors.count), 10) > 0 else { continue }
            if descriptors[0].revents != 0 { accept(isCut: isCut, control: control) }
            var broken: Set<Int> = []
            for index in 1..<descriptors.count where descriptors[index].revents != 0 {
                let pair = (index - 1) / 2
                let (client, upstream) = pairs[pair]
                let (from, to) = index % 2 == 1 ? (client, upstream) : (upstream, client)
                let count = read(from, &buffer, buffer.count)
                if count <= 0 || !writeAll(buffer, count: count, to: to) { broken.insert(pair) }
            }
            for pair in broken.sorted(by: >) {
                close(pairs[pair].0)
                close(pairs[pair].1)
                pairs.remove(at: pair)
            }
        }
        close(listener)
    }

    private mutating func accept(isCut: Bool, control: LockedCondition<TCPProxy.Control>) {
        let client = Foundation.accept(listener, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        control.update { $0.acceptedConnections += 1 }
        guard !isCut else {
            close(client)
            return
        }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Loopback.address(port: UInt16(upstreamPort))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(client)
            close(upstream)
            return
        }
        pairs.append((client, upstream))
    }

    private func writeAll(_ buffer: [UInt8], count: Int, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < count {
            let written = buffer.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private mutating func closeAll() {
        for (client, upstream) in pairs {
            close(client)
            close(upstream)
        }
        pairs.removeAll()
    }
}
