import Ensign
import EnsignHTTP
import EnsignSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: hands each task's response head, body pieces and end to that
/// task's ``URLSessionExchange``, and refuses redirects.
///
/// Redirects are refused, as the socket client refuses them, because `URLSession` would send
/// the request's own headers (credentials) to wherever a redirect points; the 3xx reaches the
/// source as the answer, and the source reports it.
///
/// Tasks are cancelled through the router (``cancel(_:in:)``), on the session's delegate queue,
/// where redirects are decided too: a redirect's completion handler that runs after the task
/// was cancelled makes FoundationNetworking trap ("Received callback for HTTP redirection, but
/// we're not waiting for it"), and the queue is serial, so a task the router cancelled gets no
/// redirect decision afterwards.
///
/// With FoundationNetworking (Linux) the router cancels nothing at all: cancelling a task whose
/// connection fails at the same moment reports the failure twice, and the second report traps
/// ("Trying to access a behaviour for a task that in not in the registry"; the thread-sanitized
/// suite hit it, and swiftlang/swift-corelibs-foundation's own test of that case, SR-11310, is
/// disabled for it). There a task the source no longer wants is abandoned: its events are
/// dropped and it ends with its response or its time-out, and the transport polls instead of
/// following event streams, which end only when cancelled.
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    /// Whether tasks are cancelled (Apple platforms) or abandoned (FoundationNetworking).
    #if canImport(FoundationNetworking)
        static let cancelsTasks = false
    #else
        static let cancelsTasks = true
    #endif

    private let exchanges = LockedState<[Int: URLSessionExchange]>([:])
    /// Tasks cancelled (or, with `isClosing`, all of them): no redirect decision goes to them.
    private let cancelled = LockedState<(tasks: Set<Int>, isClosing: Bool)>(([], false))

    /// Routes `task`'s events to `exchange`; call it before resuming the task.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Stops routing `task`'s events (they are dropped from now on).
    func remove(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Cancels `task` from `session`'s delegate queue (see above); with FoundationNetworking,
    /// leaves it to end on its own.
    func cancel(_ task: URLSessionTask, in session: URLSession) {
        guard Self.cancelsTasks else { return }
        let identifier = task.taskIdentifier
        session.delegateQueue.addOperation { [self] in
            cancelled.withLock { _ = $0.tasks.insert(identifier) }
            task.cancel()
        }
    }

    /// Cancels every task and invalidates `session`, from its delegate queue (see above); with
    /// FoundationNetworking, lets the tasks end on their own first.
    func close(_ session: URLSession) {
        guard Self.cancelsTasks else { return session.finishTasksAndInvalidate() }
        session.delegateQueue.addOperation { [self] in
            cancelled.withLock { $0.isClosing = true }
            session.invalidateAndCancel()
        }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        guard let response = response as? HTTPURLResponse else {
            exchange.post(.finished(.malformed("not an HTTP response")))
            return completionHandler(.cancel)
        }
        completionHandler(exchange.post(.head(HTTPResponseHead(response))) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask), exchange.post(.body([UInt8](data))) else {
            // Nobody reads it (abandoned, or over the buffer limit). On the delegate queue
            // already: cancel as ``cancel(_:in:)`` does, or (FoundationNetworking) drop it.
            guard Self.cancelsTasks else { return }
            cancelled.withLock { _ = $0.tasks.insert(dataTask.taskIdentifier) }
            return dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(for: task)?.post(.finished(error.map { HTTPError(urlSessionError: $0, host: task.hostForMessages) }))
        remove(task)
        cancelled.withLock { _ = $0.tasks.remove(task.taskIdentifier) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // A task cancelled already must not get its completion handler (see above): the
        // cancellation ends it.
        let isCancelled = cancelled.withLock { $0.isClosing || $0.tasks.contains(task.taskIdentifier) }
        if !isCancelled { completionHandler(nil) }
    }
}

extension URLSessionTask {
    /// The host the task asked, for error messages.
    fileprivate var hostForMessages: String {
        originalRequest?.url?.host ?? "the server"
    }
}
