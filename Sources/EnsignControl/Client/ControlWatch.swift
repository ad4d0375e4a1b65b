import Ensign
import EnsignSupport

/// A stream of change events from a running app, on a connection of its own.
///
/// Read it synchronously with ``next(timeout:)`` (what `ensign watch` does), or as an
/// asynchronous sequence with ``events()`` (which reads on a thread of its own):
///
/// ```swift
/// let watch = try ControlClient.connect().watch(keys: ["beneficiaries.showPendingList"])
/// for try await event in watch.events() {
///     if case .change(_, let report) = event {
///         for change in report.changes { print(change.key, change.newValue?.jsonText ?? "default") }
///     }
/// }
/// ```
///
/// Use one of the two ways per watch. When the app is slower to be read than it changes,
/// the server drops events and sends ``ControlEvent/dropped(watch:count:)`` in their place.
/// ``close()`` ends the stream.
public final class ControlWatch: Sendable {
    /// The full keys watched; `nil` for every key.
    public let keys: [String]?
    private let state: LockedState<State>
    private let channel: LineChannel
    // `channel` is only used by one reader at a time: `next(timeout:)` callers (serialised
    // by `readLock`), or the `events()` thread. `shutDown()` is safe from any thread.
    private let readLock = LockedState(())

    private struct State {
        var isClosed = false
        var hasReader = false
    }

    private init(keys: [String]?, channel: LineChannel) {
        self.keys = keys
        self.channel = channel
        self.state = LockedState(State())
    }

    static func open(socketPath: String, keys: [String]?, timeout: Duration) throws(ControlClientError) -> ControlWatch
    {
        let channel = try LineChannel.connect(to: socketPath)
        let request = ControlRequest(id: .number(1), operation: .watch(keys: keys))
        let result = try ControlClient.exchange(request, on: channel, timeout: timeout)
        let watched = result["keys"]?.arrayValue?.compactMap(\.stringValue)
        return ControlWatch(keys: watched, channel: channel)
    }

    /// The next event; `nil` when `timeout` passes first or a signal (such as `SIGINT`)
    /// interrupts the wait. A `nil` timeout waits until an event comes.
    ///
    /// - Throws: ``ControlClientError/disconnected(_:)`` when the app stops or the watch is closed.
    public func next(timeout: Duration? = nil) throws(ControlClientError) -> ControlEvent? {
        try readLock.withLock { (_) throws(ControlClientError) -> ControlEvent? in
            guard !state.withLock({ $0.isClosed }) else { throw .disconnected("the watch was closed") }
            while true {
                guard let line = try channel.receiveLine(timeout: timeout) else { return nil }
                let message: ControlMessage
                do throws(ControlError) {
                    message = try ControlMessage.parse(line: line)
                } catch {
                    throw .protocolViolation(error.message)
                }
                switch message {
                case .event(let event): return event
                case .reply(let reply):
                    if case .failure(let error) = reply.outcome { throw .refused(error) }
                }
            }
        }
    }

    /// The events as an asynchronous sequence, read on a dedicated thread. It ends with an
    /// error when the app stops, and ends when the consuming task is cancelled or ``close()``
    /// is called. Call it at most once.
    public func events() -> AsyncThrowingStream<ControlEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ControlEvent.self, throwing: (any Error).self)
        let isFirst = state.withLock { state in
            defer { state.hasReader = true }
            return !state.hasReader && !state.isClosed
        }
        guard isFirst else {
            continuation.finish(throwing: ControlClientError.disconnected("the watch is closed or already read"))
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.close() }
        do {
            let thread = try JoinableThread.start(name: "ensign-watch") { [self] in
                while true {
                    do {
                        guard let event = try next(timeout: nil) else { continue }
                        continuation.yield(event)
                    } catch {
                        let wasClosed = state.withLock { $0.isClosed }
                        continuation.finish(throwing: wasClosed ? nil : error)
                        return
                    }
                }
            }
            thread.detach()
        } catch {
            continuation.finish(throwing: ControlClientError.disconnected(error.description))
        }
        return stream
    }

    /// Ends the watch and its connection; a blocked ``next(timeout:)`` or ``events()`` ends.
    public func close() {
        let isFirstClose = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard isFirstClose else { return }
        channel.shutDown()
    }

    deinit {
        channel.close()
    }
}
