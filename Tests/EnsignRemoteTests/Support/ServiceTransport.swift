import Ensign
import EnsignHTTP
import EnsignOFREP
import EnsignRemote
import EnsignSupport

/// A transport without sockets for the remote source's tests: requests are answered by the
/// real OFREP service over a server-side context, and event streams by a queue the test
/// fills (``notifyChange()`` sends the service's own change event). The test can take the
/// server down, script a status for the next requests, and read every request sent.
final class ServiceTransport: OFREPTransport {
    let service: OFREPService
    let state = LockedState(State())

    struct State {
        /// Every connection attempt fails while it is down.
        var isDown = false
        /// Whether bulk responses offer an event stream.
        var offersStream = true
        /// Answers for the next requests, in order, instead of the service's.
        var scripted: [(status: Int, headers: [(name: String, value: String)], body: String)] = []
        /// The requests sent (bulk and stream), in order.
        var requests: [HTTPRequest] = []
        /// Stream text not yet sent to the connected stream.
        var pendingEvents: [String] = []
        /// Where each stream connection went.
        var streamEndpoints: [HTTPEndpoint] = []
        /// Whether stream connections are refused (with a 404) rather than served.
        var refusesStreams = false
        /// Stream connections made.
        var streamConnections = 0
        /// Whether a stream is connected now.
        var isStreaming = false
    }

    /// Whether it pretends to bring TLS, so the source accepts `https` URLs.
    let supportsTLS: Bool

    init(definitions: String, supportsTLS: Bool = false) throws {
        self.supportsTLS = supportsTLS
        var options = OFREPServiceOptions()
        options.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        service = OFREPService(context: try AppContext(definitions: definitions), options: options)
    }

    /// The server's context: change it to change what the service answers.
    var context: AppContext { service.context }

    /// Sends the service's change event to the connected stream.
    func notifyChange() {
        let text = service.changeEvent().streamText
        state.withLock { $0.pendingEvents.append(text) }
    }

    /// The bulk requests sent so far.
    var bulkRequests: [HTTPRequest] { state.withLock { $0.requests.filter { $0.method == "POST" } } }

    func send(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, timeout: Duration, cancellation: Cancellation
    ) throws(HTTPError) -> HTTPResponse {
        if cancellation.isCancelled { throw .cancelled }
        let scripted = try state.withLock { state throws(HTTPError) in
            guard !state.isDown else { throw .connectFailed("Connection refused") }
            state.requests.append(request)
            return state.scripted.isEmpty ? nil : state.scripted.removeFirst()
        }
        if let scripted {
            return Self.response(status: scripted.status, headers: scripted.headers, body: Array(scripted.body.utf8))
        }
        var headers: [String: String] = [:]
        for header in request.headers { headers[header.name.lowercased()] = header.value }
        var answer = service.respond(
            to: OFREPHTTPRequest(method: request.method, target: request.path, headers: headers, body: request.body))
        if answer.status == 200, !state.withLock({ $0.offersStream }),
            var bulk = try? OFREPBulkEvaluationResponse(jsonBytes: answer.body)
        {
            bulk.eventStreams = []
            answer.body = Array(bulk.jsonText.utf8)
        }
        return Self.response(status: answer.status, headers: answer.headers, body: answer.body)
    }

    func stream(
        _ request: HTTPRequest, to endpoint: HTTPEndpoint, headTimeout: Duration, cancellation: Cancellation,
        onHead: (HTTPResponseHead) throws -> Void, onBody: ([UInt8]) throws -> Bool
    ) throws {
        try state.withLock { state throws(HTTPError) in
            guard !state.isDown else { throw .connectFailed("Connection refused") }
            state.requests.append(request)
            state.streamEndpoints.append(endpoint)
            state.streamConnections += 1
            state.isStreaming = true
            state.pendingEvents = []
        }
        defer { state.withLock { $0.isStreaming = false } }
        if state.withLock({ $0.refusesStreams }) {
            try onHead(Self.response(status: 404, headers: [], body: []).head)
            return
        }
        try onHead(Self.response(status: 200, headers: [("Content-Type", "text/event-stream")], body: []).head)
        while true {
            let (events, isDown) = state.withLock { state in
                defer { state.pendingEvents = [] }
                return (state.pendingEvents, state.isDown)
            }
            if isDown { throw HTTPError.connectionClosed("the server went away") }
            for event in events {
                guard try onBody(Array(event.utf8)) else { return }
            }
            if cancellation.sleep(for: .milliseconds(2)) { throw HTTPError.cancelled }
        }
    }

    /// A response as the HTTP client hands it out.
    static func response(status: Int, headers: [(name: String, value: String)], body: [UInt8]) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, reason: "Status", headers: headers), body: body)
    }
}
