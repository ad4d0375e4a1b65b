import Dispatch
import Ensign
import EnsignOFREP
import Synchronization

/// The event stream's clients and what tells them of changes: an observer of the context
/// (every value change, at once) and a poll of its generation (changes no value of the
/// server's own context shows, such as a targeting rule only some requests reach).
///
/// Each change becomes one `refetchEvaluation` event per client, queued without blocking the
/// context's writer.
final class EventStreamHub: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: EventStreamClient] = [:]
        var lastGeneration: UInt64
        var isStopped = false
        var observation: ObservationToken?
    }

    let service: OFREPService
    let options: OFREPServerOptions
    private let state: Mutex<State>
    private let pollQueue = DispatchQueue(label: "ensign.serve.generation-poll")

    /// A hub for `service`'s context; it watches nothing until ``start()``.
    init(service: OFREPService, options: OFREPServerOptions) {
        self.service = service
        self.options = options
        state = Mutex(State(lastGeneration: service.context.untrackedSnapshot.generation))
    }

    /// Starts observing the context.
    func start() {
        let observation = service.context.observeAll(label: "ofrep event stream") { [weak self] _ in
            self?.announceIfChanged()
        }
        state.withLock { $0.observation = observation }
        schedulePoll()
    }

    /// Polls the generation once after the interval, then again, until the hub stops. On a
    /// Dispatch queue, not in a task: a server's request threads may hold every thread of
    /// Swift's cooperative pool, and the poll must run anyway.
    private func schedulePoll() {
        let interval = DispatchTimeInterval.nanoseconds(Int(options.generationPollInterval.nanosecondsRounded))
        pollQueue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, !self.state.withLock({ $0.isStopped }) else { return }
            self.announceIfChanged()
            self.schedulePoll()
        }
    }

    /// A new client, or `nil` when the hub is stopped or has as many clients as it may.
    ///
    /// A client that gives the id of an event older than the current generation
    /// (`Last-Event-ID`, after a reconnection) gets the current event at once.
    func addClient(lastEventID: String?) -> EventStreamClient? {
        let client = EventStreamClient(capacity: options.eventQueueCapacity)
        let generation: UInt64? = state.withLock { state in
            guard !state.isStopped, state.clients.count < options.maximumEventStreamClients else { return nil }
            state.clients[ObjectIdentifier(client)] = client
            return state.lastGeneration
        }
        guard let generation else { return nil }
        if let lastEventID, lastEventID != String(generation) {
            client.enqueue(service.changeEvent(generation: generation, lastModifiedSeconds: Self.now()).streamText)
        } else {
            // A comment first, so the client (and a test) sees the stream open before any change.
            client.enqueue(": connected at generation \(generation)\n\n")
        }
        return client
    }

    /// Forgets a client whose connection ended.
    func removeClient(_ client: EventStreamClient) {
        client.close()
        _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// How many clients are connected.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Queues an event for every client when the context's generation moved.
    func announceIfChanged() {
        let generation = service.context.untrackedSnapshot.generation
        let clients: [EventStreamClient]? = state.withLock { state in
            guard !state.isStopped, generation > state.lastGeneration else { return nil }
            state.lastGeneration = generation
            return Array(state.clients.values)
        }
        guard let clients, !clients.isEmpty else { return }
        let text = service.changeEvent(generation: generation, lastModifiedSeconds: Self.now()).streamText
        for client in clients { client.enqueue(text) }
    }

    /// Stops watching and ends every stream.
    func stop() {
        let (clients, observation) = state.withLock { state in
            state.isStopped = true
            defer {
                state.clients = [:]
                state.observation = nil
            }
            return (Array(state.clients.values), state.observation)
        }
        observation?.cancel()
        for client in clients { client.close() }
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
