import Ensign
import EnsignHTTP
import EnsignSupport

/// One request's mailbox between `URLSession`'s delegate queue, which posts what arrives, and
/// the thread that sent the request, which takes it: so the transport's callbacks run on the
/// caller's thread, as `OFREPTransport` promises, and a wait is woken by the response, its
/// deadline or the source's ``Cancellation`` alike (one `poll(2)` on two wake signals).
final class URLSessionExchange: Sendable {
    /// What the delegate reports, in order.
    enum Event: Sendable {
        /// The status line and headers.
        case head(HTTPResponseHead)
        /// A piece of the body.
        case body([UInt8])
        /// The end: `nil` after the whole body, or why the exchange failed.
        case finished(HTTPError?)
    }

    /// The most body bytes that may wait unread; past it the exchange fails (a server that
    /// floods a slow reader must not grow the heap without bound, as TCP's window would stop it).
    static let maximumBufferedBytes = 16 << 20

    private struct Mailbox {
        var events: [Event] = []
        var bufferedBytes = 0
        var isClosed = false
    }

    private let mailbox = LockedState(Mailbox())
    private let arrived = WakeSignal.make()

    init() {}

    /// Posts `event` from the delegate queue and wakes the taker.
    ///
    /// - Returns: false when the exchange is over (finished, or its buffer overflowed): the
    ///   caller then cancels the task.
    @discardableResult
    func post(_ event: Event) -> Bool {
        let accepted = mailbox.withLock { mailbox in
            guard !mailbox.isClosed else { return false }
            if case .body(let bytes) = event {
                mailbox.bufferedBytes += bytes.count
                guard mailbox.bufferedBytes <= Self.maximumBufferedBytes else {
                    mailbox.events = [.finished(.tooLarge("the unread response body (over 16 MB)"))]
                    mailbox.isClosed = true
                    return false
                }
            }
            if case .finished = event { mailbox.isClosed = true }
            mailbox.events.append(event)
            return true
        }
        arrived.signal()
        return accepted
    }

    /// Waits for events and returns every one posted so far (at least one).
    ///
    /// - Throws: ``HTTPError/cancelled`` once `cancellation` fires, or
    ///   ``HTTPError/timedOut(_:)`` (saying `waiting`) when `deadline` passes first.
    func take(until deadline: ContinuousClock.Instant?, cancellation: Cancellation, waiting: String)
        throws(HTTPError) -> [Event]
    {
        while true {
            let events = mailbox.withLock { mailbox in
                defer {
                    mailbox.bufferedBytes = 0
                    mailbox.events = []
                }
                return mailbox.events
            }
            if !events.isEmpty { return events }
            if cancellation.isCancelled { throw .cancelled }
            guard arrived.wait(until: deadline, or: cancellation.signal) else { throw .timedOut(waiting) }
            arrived.drain()
        }
    }
}
