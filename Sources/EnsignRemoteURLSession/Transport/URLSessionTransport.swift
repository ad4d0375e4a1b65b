import EnsignHTTP
import EnsignRemote
import EnsignSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The remote source's transport over `URLSession`: `https` with the platform's TLS and trust
/// store (FoundationNetworking's libcurl on Linux), connections kept alive between polls.
///
/// Each exchange is a data task whose delegate events go through a ``URLSessionExchange``,
/// so the thread that asked runs the callbacks and every wait ends on the response, its
/// deadline or the source's cancellation.
final class URLSessionTransport: OFREPTransport {
    /// The largest whole response `send` accepts, as the libcurl transport's.
    static let maximumBodySize = 16 << 20

    /// How long an event stream may be quiet before `URLSession` would give up on it: a day
    /// (its per-request timeout is an idle timeout, and a stream is quiet between changes;
    /// the source reconnects when it ends).
    static let streamIdleTimeout = Duration.seconds(24 * 3600)

    private let session: URLSession
    private let router: URLSessionTaskRouter

    /// A transport with its own session, made from `configuration`.
    init(configuration: URLSessionConfiguration) {
        router = URLSessionTaskRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        // The session keeps its delegate until it is invalidated.
        router.close(session)
    }

    var supportsTLS: Bool { true }

    /// On Apple platforms; not with FoundationNetworking, where a task cannot be cancelled
    /// safely (see ``URLSessionTaskRouter``) and a stream ends only when cancelled.
    var supportsEventStreams: Bool { URLSessionTaskRouter.cancelsTasks }

    func send(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, timeout: Duration, cancellation: Cancellation
    ) throws(HTTPError) -> HTTPResponse {
        let deadline = ContinuousClock.now + timeout
        return try exchange(request, at: endpoint, idleTimeout: timeout) { exchange throws(HTTPError) in
            var head: HTTPResponseHead?
            var body: [UInt8] = []
            while true {
                let events = try exchange.take(
                    until: deadline, cancellation: cancellation, waiting: "for \(endpoint.hostHeader)'s response")
                for event in events {
                    switch event {
                    case .head(let received):
                        head = received
                    case .body(let piece):
                        body += piece
                        guard body.count <= Self.maximumBodySize else { throw .tooLarge("the response body") }
                    case .finished(let error):
                        if let error { throw error }
                        guard let head else { throw .malformed("the exchange ended without a response") }
                        return HTTPResponse(head: head, body: body)
                    }
                }
            }
        }
    }

    func stream(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, headTimeout: Duration, cancellation: Cancellation,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws {
        let headDeadline = ContinuousClock.now + headTimeout
        try exchange(request, at: endpoint, idleTimeout: Self.streamIdleTimeout) { exchange in
            var hasHead = false
            while true {
                let events = try exchange.take(
                    until: hasHead ? nil : headDeadline, cancellation: cancellation,
                    waiting: "for \(endpoint.hostHeader)'s event stream")
                for event in events {
                    switch event {
                    case .head(let head):
                        hasHead = true
                        try onHead(head)
                    case .body(let piece):
                        guard try onBody(piece) else { return }
                    case .finished(let error):
                        if let error { throw error }
                        return
                    }
                }
            }
        }
    }

    /// Runs `request` as a data task whose events `body` takes; the task is cancelled (if it
    /// is still running) and forgotten when `body` returns or throws.
    private func exchange<Result, Failure: Error>(
        _ request: HTTPRequest, at endpoint: HTTPEndpoint, idleTimeout: Duration,
        _ body: (URLSessionExchange) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let exchange = URLSessionExchange()
        let task: URLSessionDataTask
        do {
            task = session.dataTask(with: try URLRequest(request, at: endpoint, idleTimeout: idleTimeout))
        } catch {
            // Not a URL URLSession reads: the exchange fails like one that could not connect.
            exchange.post(.finished(error))
            return try body(exchange)
        }
        router.register(exchange, for: task)
        defer {
            router.remove(task)
            router.cancel(task, in: session)
        }
        task.resume()
        return try body(exchange)
    }
}
