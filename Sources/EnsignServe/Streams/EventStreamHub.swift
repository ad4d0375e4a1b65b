import Ensign
import EnsignOFREP
import EnsignSupport

/// The event stream's clients and what tells them of changes: an observer of the context
/// (every value change, at once) and a poll of its generation (changes no value of the
/// server's own context shows, such as a targeting rule only some requests reach).
///
/// A change is announced when the configuration digest (``OFREPService/configurationDigest``)
/// moves, with the digest as the event's id: a write that changes nothing announces nothing, and
/// a client reconnecting to another replica with `Last-Event-ID` is understood there. Each
/// change becomes one `refetchEvaluation` event per client, queued without blocking the
/// context's writer; the server's tick also has the hub send quiet streams their keep-alive comments.
final class EventStreamHub: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: EventStreamClient] = [:]
        var lastGeneration: UInt64
        var lastDigest: String
        /// The last digest announced to the clients of each flag set that has some.
        var lastSetDigests: [OFREPFlagSetSelector: String] = [:]
        var isStopped = false
        var observation: ObservationToken?
        var refused = 0
        var announcements = 0
        /// Events dropped for clients that have gone.
        var droppedByGoneClients = 0
        var lastKeepAliveRound: ContinuousClock.Instant = .now
    }

    let service: OFREPService
    let limit: Int
    let queueCapacity: Int
    let keepAliveInterval: Duration
    private let state: LockedState<State>

    /// A hub for `service`'s context with at most `limit` clients; it watches nothing until ``start()``.
    init(service: OFREPService, limit: Int, queueCapacity: Int, keepAliveInterval: Duration) {
        self.service = service
        self.limit = limit
        self.queueCapacity = queueCapacity
        self.keepAliveInterval = keepAliveInterval
        let snapshot = service.context.untrackedSnapshot
        state = LockedState(
            State(lastGeneration: snapshot.generation, lastDigest: service.configurationDigest))
    }

    /// Starts observing the context; ``tick(now:)`` does the rest.
    func start() {
        let observation = service.context.observeAll(label: "ofrep event stream") { [weak self] _ in
            self?.announceIfChanged()
        }
        state.withLock { $0.observation = observation }
    }

    /// Called every poll interval by the server: announces a change no value of the server's
    /// own context showed, and sends keep-alive comments to streams that have been quiet.
    func tick(now: ContinuousClock.Instant) {
        announceIfChanged()
        let isDue = state.withLock { state -> Bool in
            // A third of the interval apart, so that no stream waits much longer than the interval.
            guard now - state.lastKeepAliveRound >= keepAliveInterval / 3 else { return false }
            state.lastKeepAliveRound = now
            return true
        }
        if isDue {
            for client in clients { client.keepAlive(ifIdleFor: keepAliveInterval, now: now) }
        }
    }

    /// The connections of the streams whose clients have left events unread for longer than `limit`.
    func stalledConnections(now: ContinuousClock.Instant, limit: Duration) -> [ConnectionTable.Ticket] {
        clients.compactMap { $0.isStalled(now: now, limit: limit) ? $0.connection.ticket : nil }
    }

    /// A new client on `connection`, or `nil` when the hub is stopped or has as many clients
    /// as it may.
    ///
    /// A client that gives the id of an event other than the current configuration's
    /// (`Last-Event-ID`, after a reconnection, to this replica or another) gets the current
    /// event at once.
    ///
    /// A client with a `selector` hears only of changes to that flag set's flags, its events'
    /// ids the set's digest.
    func addClient(
        lastEventID: String?, selector: OFREPFlagSetSelector? = nil, connection: SuspendableConnection
    ) -> EventStreamClient? {
        let client = EventStreamClient(capacity: queueCapacity, connection: connection, selector: selector)
        let snapshot = service.context.untrackedSnapshot
        let setDigest = selector.map { service.configurationDigest(of: snapshot, selector: $0) }
        let digest: String? = state.withLock { state in
            guard !state.isStopped, state.clients.count < limit else {
                state.refused += 1
                return nil
            }
            state.clients[ObjectIdentifier(client)] = client
            guard let selector, let setDigest else { return state.lastDigest }
            // The set's digest as of this client: a later announcement compares with it.
            if state.lastSetDigests[selector] == nil { state.lastSetDigests[selector] = setDigest }
            return state.lastSetDigests[selector]
        }
        guard let digest else { return nil }
        if let lastEventID, lastEventID != digest {
            client.enqueue(service.changeEvent(configurationDigest: digest, lastModifiedSeconds: Self.now()).streamText)
        } else {
            // A comment first, so the client (and a test) sees the stream open before any change.
            client.enqueue(": connected at \(digest)\n\n")
        }
        return client
    }

    /// Forgets a client whose connection ended.
    func removeClient(_ client: EventStreamClient) {
        client.connectionEnded()
        let dropped = client.droppedEvents
        state.withLock { state in
            state.clients.removeValue(forKey: ObjectIdentifier(client))
            state.droppedByGoneClients += dropped
            // A set nobody follows any more is forgotten, so the map stays as small as the sets in use.
            if let selector = client.selector, !state.clients.values.contains(where: { $0.selector == selector }) {
                state.lastSetDigests[selector] = nil
            }
        }
    }

    /// How many clients are connected.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// How many streams were refused because the hub had `limit` clients (or was stopped).
    var refusedCount: Int { state.withLock { $0.refused } }

    /// How many changes were announced.
    var announcementCount: Int { state.withLock { $0.announcements } }

    /// How many events were dropped for clients that read too slowly.
    var droppedEventCount: Int {
        let (clients, gone) = state.withLock { (Array($0.clients.values), $0.droppedByGoneClients) }
        return clients.reduce(gone) { $0 + $1.droppedEvents }
    }

    private var clients: [EventStreamClient] { state.withLock { Array($0.clients.values) } }

    /// Queues an event for every client when the configuration digest moved.
    func announceIfChanged() {
        let snapshot = service.context.untrackedSnapshot
        let isNewer = state.withLock { state -> Bool in
            guard !state.isStopped, snapshot.generation > state.lastGeneration else { return false }
            state.lastGeneration = snapshot.generation
            return true
        }
        guard isNewer else { return }
        let digest = service.configurationDigest(of: snapshot)
        let clients: [EventStreamClient]? = state.withLock { state in
            // Two threads may announce at once (the observer and the poll): the digest of the
            // newest generation seen wins, and each digest is announced once.
            guard !state.isStopped, snapshot.generation == state.lastGeneration, digest != state.lastDigest else {
                return nil
            }
            state.lastDigest = digest
            state.announcements += 1
            return Array(state.clients.values)
        }
        guard let clients, !clients.isEmpty else { return }
        // Every flag's clients hear of every change; a flag set's, of changes to that set alone.
        var bySet: [OFREPFlagSetSelector: [EventStreamClient]] = [:]
        var everyFlag: [EventStreamClient] = []
        for client in clients {
            if let selector = client.selector {
                bySet[selector, default: []].append(client)
            } else {
                everyFlag.append(client)
            }
        }
        var announcements: [(bytes: [UInt8], clients: [EventStreamClient])] = []
        if !everyFlag.isEmpty {
            announcements.append((Self.event(service, digest: digest), everyFlag))
        }
        for (selector, members) in bySet {
            let setDigest = service.configurationDigest(of: snapshot, selector: selector)
            let isNew = state.withLock { state -> Bool in
                guard state.lastSetDigests[selector] != setDigest else { return false }
                state.lastSetDigests[selector] = setDigest
                return true
            }
            if isNew { announcements.append((Self.event(service, digest: setDigest), members)) }
        }
        // Queue everywhere first, then resume: see `EventStreamClient.enqueueLeavingSuspended`.
        let now = ContinuousClock.now
        var suspended: [EventStreamClient] = []
        suspended.reserveCapacity(clients.count)
        for (bytes, members) in announcements {
            for client in members where client.enqueueLeavingSuspended(bytes, now: now) { suspended.append(client) }
        }
        for client in suspended { client.resumeIfPending() }
    }

    /// The wire bytes of the change event for `digest`.
    private static func event(_ service: OFREPService, digest: String) -> [UInt8] {
        Array(service.changeEvent(configurationDigest: digest, lastModifiedSeconds: now()).streamText.utf8)
    }

    /// Stops watching. With `retryMilliseconds`, each stream gets a last event that says the
    /// server is going away and when to reconnect (each client its own delay, between that and
    /// five times that, so that a fleet does not come back at once) and ends once it is sent;
    /// without, every stream ends now.
    func stop(retryMilliseconds: Int? = nil) {
        let (clients, observation) = state.withLock { state in
            state.isStopped = true
            defer { state.observation = nil }
            return (Array(state.clients.values), state.observation)
        }
        observation?.cancel()
        for client in clients {
            if let retryMilliseconds {
                let delay = Int.random(in: retryMilliseconds...(retryMilliseconds * 5))
                client.finish(with: "retry: \(delay)\n: the server is shutting down; reconnect\n\n")
            } else {
                client.close()
            }
        }
    }

    /// Unix seconds, for the events' `lastModified`.
    static func now() -> Int {
        Int(WallClockTime.now().secondsSince1970)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (at least 1), for Dispatch's intervals.
    var nanosecondsRounded: Int64 {
        max(1, components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
