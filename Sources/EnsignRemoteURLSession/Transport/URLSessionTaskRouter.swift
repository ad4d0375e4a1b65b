import Ensign
import EnsignHTTP
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
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = LockedState<[Int: URLSessionExchange]>([:])

    /// Routes `task`'s events to `exchange`; call it before resuming the task.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Stops routing `task`'s events (they are dropped from now on).
    func remove(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
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
            return dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(for: task)?.post(.finished(error.map { HTTPError(urlSessionError: $0, host: task.hostForMessages) }))
        remove(task)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension URLSessionTask {
    /// The host the task asked, for error messages.
    fileprivate var hostForMessages: String {
        originalRequest?.url?.host ?? "the server"
    }
}
