import Ensign
import EnsignHTTP
import EnsignOFREP

extension RemoteSession {
    /// Why an event stream connection ended before it was usable.
    struct StreamRefused: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `stream` and follows it until it ends: re-fetches once the connection is up
    /// (a change between the last fetch and the connect is not missed), then on each
    /// `refetchEvaluation` event, coalescing the events of one read into one request.
    ///
    /// - Returns: whether the connection came up (its head was a 200).
    func follow(_ stream: OFREPEventStream, _ state: inout LoopState) -> Bool {
        guard let (streamEndpoint, path) = resolve(stream) else {
            state.streams = []  // not usable: poll instead
            return false
        }
        // Credentials go only to the server they are for; the stream URL carries its own.
        let sameServer = streamEndpoint.isSameOrigin(as: endpoint)
        var headers = [(name: "Accept", value: "text/event-stream"), (name: "Cache-Control", value: "no-cache")]
        if !state.lastEventID.isEmpty { headers.append((name: "Last-Event-ID", value: state.lastEventID)) }
        if sameServer {
            for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) {
                headers.append((name: name, value: value))
            }
        }
        if let selector = configuration.selector { headers.append((name: "Flagd-Selector", value: selector)) }
        let request = HTTPRequest(method: "GET", path: path, headers: headers)
        var parser = ServerSentEventParser()
        var connected = false
        do {
            try transport.stream(
                request, to: streamEndpoint, headTimeout: configuration.requestTimeout, cancellation: cancellation,
                onHead: { head in
                    guard head.status == 200 else {
                        throw StreamRefused(description: "the event stream answered \(head.status) \(head.reason)")
                    }
                    connected = true
                    progress.update { $0.isStreaming = true }
                    fetch(.conditional, &state)
                },
                onBody: { bytes in
                    var trigger: OFREPEventData?
                    for event in try parser.feed(bytes) {
                        state.lastEventID = event.lastEventID
                        // Unknown types and data that is not OFREP's are ignored (forward compatibility).
                        guard let data = try? OFREPEventData(jsonText: event.data),
                            data.type == OFREPEventData.refetchEvaluationType
                        else { continue }
                        trigger = data
                    }
                    if let trigger { fetch(.event(trigger), &state) }
                    return !cancellation.isCancelled
                })
        } catch {
            if !cancellation.isCancelled, !connected {
                progress.update { $0.lastError = "the event stream on \(streamEndpoint.hostHeader): \(error)" }
            }
        }
        progress.update { $0.isStreaming = false }
        return connected
    }

    /// Where a stream entry points: its `url`, or `origin` (by default the base URL's) plus
    /// `requestUri`; `nil` when that is not a URL the transport can use (`https` needs TLS), or
    /// when it would leave TLS for plain HTTP.
    func resolve(_ stream: OFREPEventStream) -> (HTTPEndpoint, String)? {
        let origin = endpoint.origin
        let url: String
        if let given = stream.url {
            url = given.hasPrefix("/") ? origin + given : given
        } else if let target = stream.endpoint {
            url = (target.origin ?? origin) + target.requestUri
        } else {
            return nil
        }
        guard let parsed = try? HTTPEndpoint(url, allowingTLS: transport.supportsTLS),
            parsed.scheme == .https || endpoint.scheme == .http
        else { return nil }
        // The endpoint's base path is the whole request target (path and query); the request adds nothing.
        return parsed.basePath.isEmpty ? (parsed, "/") : (parsed, "")
    }
}
