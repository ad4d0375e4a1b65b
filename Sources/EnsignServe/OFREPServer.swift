import Ensign
import EnsignOFREP
import EnsignSupport

/// The OFREP service over HTTP/1.1, served by libmicrohttpd: the evaluation and configuration
/// endpoints, the server-sent-events stream (ADR 0008) for bulk clients, and the operations
/// endpoints `/healthz`, `/readyz` and `/metrics`.
///
/// Built to hold a fleet on a small machine: a few worker threads each multiplex thousands of
/// connections with epoll, an idle event stream costs no thread (it is suspended until an
/// event comes), and the ``OFREPServerLimits`` come from the process's descriptor limit, which
/// the server raises to the hard limit. No crowd of clients locks others out: idle connections
/// are reclaimed oldest first under pressure, a header section has a deadline however slowly it
/// comes, and event streams have a budget of their own that leaves room for evaluations.
///
/// ```swift
/// let server = try OFREPServer.start(service: OFREPService(context: context), options: OFREPServerOptions())
/// print("listening on \(server.address): \(server.limits)")
/// // …
/// server.drain(timeout: .seconds(10))
/// ```
public final class OFREPServer: Sendable {
    /// The service answering requests.
    public var service: OFREPService { core.service }
    /// The options asked for.
    public var options: OFREPServerOptions { core.options }
    /// The limits worked out at start.
    public var limits: OFREPServerLimits { core.limits }
    let core: ServerCore
    private let daemon: HTTPDaemon
    private let managementDaemon: HTTPDaemon?
    private let isStopped = LockedState(false)

    /// Why a server could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        /// Whether the TLS library refused ``OFREPServerOptions/tls``'s certificate and key (the
        /// description says why), rather than the address being unusable.
        public var isTLSRefusal = false
    }

    private init(core: ServerCore, daemon: HTTPDaemon, managementDaemon: HTTPDaemon?) {
        self.core = core
        self.daemon = daemon
        self.managementDaemon = managementDaemon
    }

    deinit { stop() }

    /// Where it listens, with the port the system chose when port 0 was asked for.
    public var address: ListenAddress {
        ListenAddress(host: core.options.listenAddress.host, port: daemon.port)
    }

    /// Where `/healthz`, `/readyz` and `/metrics` are served: the management address when one
    /// was given, else ``address``.
    public var managementAddress: ListenAddress {
        guard let managementDaemon, let asked = core.options.managementAddress else { return address }
        return ListenAddress(host: asked.host, port: managementDaemon.port)
    }

    /// Starts serving `service` on `options.listenAddress` (and the operations endpoints on
    /// `options.managementAddress`, when given).
    ///
    /// The service's ``OFREPServiceOptions/eventStreamPath`` is where the event stream is
    /// served (bulk responses advertise it); without one there is no stream.
    ///
    /// - Throws: ``StartError`` when an address cannot be bound (in use, not this machine's),
    ///   or TLS is asked for and this libmicrohttpd has none, or the certificate is refused.
    public static func start(service: OFREPService, options: OFREPServerOptions) throws(StartError) -> OFREPServer {
        let descriptors = options.raisesDescriptorLimit ? DescriptorLimit.raiseToHardLimit() : DescriptorLimit.current
        let limits = OFREPServerLimits(
            options: options, descriptors: descriptors.soft, descriptorHardLimit: descriptors.hard)
        let core = ServerCore(service: service, options: options, limits: limits)
        let log: @Sendable (String) -> Void = { [weak core] message in core?.libraryMessage(message) }
        let configuration = HTTPDaemon.Configuration(
            address: options.listenAddress, workerThreads: limits.workerThreads,
            connectionLimit: limits.connectionsWithCutRoom, connectionMemoryLimit: options.connectionMemoryLimit,
            // None of libmicrohttpd's own: the table times every connection (a stream whose
            // client stops reading is cut by the tick), and without a time-out libmicrohttpd takes
            // no lock per read and write to keep its time-out list in order.
            inactivityTimeoutSeconds: 0,
            listenBacklog: 4096, perAddressConnectionLimit: options.connectionLimitPerAddress, tls: options.tls,
            maximumHeaderCount: options.maximumHeaderCount, maximumBodyBytes: service.options.maximumBodyBytes,
            extraHeaderNames: Array(service.options.contextFromHeaders.keys))
        let daemon: HTTPDaemon
        do {
            daemon = try HTTPDaemon.start(
                configuration, table: core.table,
                responder: ServerRoutes(
                    core: core, servesOFREP: true, servesOperations: options.managementAddress == nil),
                log: log)
        } catch {
            throw StartError(description: error.description, isTLSRefusal: error.isTLSRefusal)
        }
        var managementDaemon: HTTPDaemon?
        if let managementAddress = options.managementAddress {
            // A port of its own, with a table of its own: a crowd on the public port cannot
            // take the places the probes need.
            var management = configuration
            management.address = managementAddress
            management.workerThreads = 1
            management.connectionLimit = 64 + 16
            management.tls = nil
            let table = ConnectionTable(
                settings: ConnectionTable.Settings(
                    limit: 64, pressureMark: 48, idleTimeout: options.idleTimeout, headerTimeout: options.headerTimeout,
                    requestTimeout: options.requestTimeout))
            do {
                managementDaemon = try HTTPDaemon.start(
                    management, table: table,
                    responder: ServerRoutes(core: core, servesOFREP: false, servesOperations: true), log: log)
            } catch {
                daemon.stop()
                throw StartError(description: "the management port: \(error.description)")
            }
            table.startReaping()
        }
        core.start()
        return OFREPServer(core: core, daemon: daemon, managementDaemon: managementDaemon)
    }

    /// Shuts down gracefully: stops accepting connections, tells every event stream to
    /// reconnect later (each client its own delay of one to five seconds, an SSE `retry`), lets
    /// requests in flight finish and closes idle connections, then stops. `/readyz` answers 503
    /// meanwhile, on the management port.
    ///
    /// - Returns: whether every request and stream ended within `timeout` (those still open
    ///   then are closed).
    @discardableResult
    public func drain(timeout: Duration = .seconds(10)) -> Bool {
        guard !isStopped.withLock({ $0 }) else { return true }
        core.beginDraining()
        daemon.stopAccepting()
        core.hub.stop(retryMilliseconds: 1000)
        core.table.beginDraining()
        let isQuiet = core.table.waitUntilQuiet(timeout: timeout)
        stop()
        return isQuiet
    }

    /// Stops listening, ends every event stream and closes every connection at once, and
    /// waits for the workers to finish. Calling it again does nothing.
    public func stop() {
        let wasStopped = isStopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        // Streams first: libmicrohttpd refuses to stop while a connection is suspended, and
        // ending a stream resumes its connection.
        core.hub.stop()
        core.stop()
        daemon.stop()
        managementDaemon?.table.stop()
        managementDaemon?.stop()
    }

    /// How many connections are open (event streams included); 0 once stopped.
    public var openConnectionCount: Int { core.table.occupancy.open }

    /// How many event-stream clients are connected.
    public var eventStreamClientCount: Int { core.hub.clientCount }

    /// What the server holds and has refused, for `ensign status` and logs.
    public var report: OFREPServerReport {
        let occupancy = core.table.occupancy
        let counters = core.table.counters
        return OFREPServerReport(
            limits: core.limits, openConnections: occupancy.open, idleConnections: occupancy.idle,
            connectionsReadingHeaders: occupancy.readingHeaders, eventStreams: occupancy.streaming,
            refusedConnections: counters.refusedAtLimit, refusedEventStreams: core.hub.refusedCount,
            closedSlowClients: counters.headerTimeouts, closedStalledRequests: counters.requestTimeouts,
            closedStalledStreams: counters.stalledStreams,
            reclaimedIdleConnections: counters.reclaimed)
    }
}

/// What an ``OFREPServer`` holds now and has refused since it started.
public struct OFREPServerReport: Sendable, Hashable {
    /// The limits it runs with.
    public var limits: OFREPServerLimits
    /// Connections open now, event streams included.
    public var openConnections: Int
    /// Connections waiting for their next request.
    public var idleConnections: Int
    /// Connections whose request line is in and header section is not.
    public var connectionsReadingHeaders: Int
    /// Event streams open now.
    public var eventStreams: Int
    /// Connections refused at accept (at the limit, none idle to reclaim).
    public var refusedConnections: Int
    /// Event streams refused with 503.
    public var refusedEventStreams: Int
    /// Connections cut because their header section took too long.
    public var closedSlowClients: Int
    /// Connections cut because their request took too long (a stalled body or response).
    public var closedStalledRequests: Int
    /// Event streams cut because their client left events unread for the request time-out.
    public var closedStalledStreams: Int
    /// Idle connections closed to make room for new ones.
    public var reclaimedIdleConnections: Int
}
