import Ensign
import EnsignOFREP

/// What one port of an ``OFREPServer`` answers: OFREP and its event stream, the operations
/// endpoints (`/healthz`, `/readyz`, `/metrics`), or both; every answer counted in the metrics.
struct ServerRoutes: HTTPResponder {
    let core: ServerCore
    let servesOFREP: Bool
    let servesOperations: Bool

    func answer(_ request: OFREPHTTPRequest, on connection: SuspendableConnection) -> HTTPAnswer {
        let streamPath = core.service.options.eventStreamPath
        let (endpoint, route) = ServerMetrics.Endpoint.of(
            path: request.path, eventStreamPath: servesOFREP ? streamPath : nil)
        switch endpoint {
        case .healthz where servesOperations, .readyz where servesOperations, .metrics where servesOperations:
            return .response(counted(operations(endpoint, request), endpoint))
        case .events:
            return eventStream(request, on: connection)
        default:
            guard servesOFREP else {
                return .response(
                    counted(
                        OFREPService.generalErrorResponse(404, "this port serves /healthz, /readyz and /metrics only"),
                        .other))
            }
            // The first label apart: a single evaluation, the common request, then needs no array.
            var first: ServerMetrics.EvaluationLabel?
            var others: [ServerMetrics.EvaluationLabel] = []
            let response = core.service.respond(to: request, route: route) { details in
                core.evaluations.record(details)
                guard let label = ServerMetrics.label(for: details) else { return }
                if first == nil { first = label } else { others.append(label) }
            }
            core.metrics.record(endpoint, status: response.status, first: first, others: others)
            return .response(response)
        }
    }

    func refusal(_ status: Int, _ details: String) -> OFREPHTTPResponse {
        counted(OFREPService.generalErrorResponse(status, details), .other)
    }

    private func counted(_ response: OFREPHTTPResponse, _ endpoint: ServerMetrics.Endpoint) -> OFREPHTTPResponse {
        core.metrics.record(endpoint, status: response.status)
        return response
    }

    /// `/healthz`, `/readyz`, `/metrics`. Probes never need the token; the metrics do when they
    /// are served beside OFREP and a token is set (they name every flag).
    private func operations(_ endpoint: ServerMetrics.Endpoint, _ request: OFREPHTTPRequest) -> OFREPHTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return OFREPService.generalErrorResponse(
                405, "GET only, not \(request.method)", headers: [("Allow", "GET")])
        }
        switch endpoint {
        case .healthz:
            return .json(200, #"{"status":"alive"}"#, headers: [("Cache-Control", "no-store")])
        case .readyz:
            let readiness = Readiness(core: core)
            return .json(
                readiness.isReady ? 200 : 503, readiness.json.jsonText, headers: [("Cache-Control", "no-store")])
        default:
            if servesOFREP, let refusal = core.service.authorizationFailure(for: request) { return refusal }
            return OFREPHTTPResponse(
                status: 200, headers: [("Content-Type", PrometheusText.contentType), ("Cache-Control", "no-store")],
                body: Array(MetricsExposition(core: core).text.utf8))
        }
    }

    /// `GET <event stream path>`: a `text/event-stream` response that lasts until the client
    /// goes or the server stops.
    private func eventStream(_ request: OFREPHTTPRequest, on connection: SuspendableConnection) -> HTTPAnswer {
        guard request.method == "GET" else {
            return .response(
                counted(
                    OFREPService.generalErrorResponse(
                        405, "GET only, not \(request.method)", headers: [("Allow", "GET")]), .events))
        }
        if let refusal = core.service.authorizationFailure(for: request) { return .response(counted(refusal, .events)) }
        let selector: OFREPFlagSetSelector?
        do { selector = try OFREPFlagSetSelector.of(request) } catch {
            return .response(counted(OFREPService.generalErrorResponse(400, "\(error)"), .events))
        }
        guard !core.isDraining,
            let client = core.hub.addClient(
                lastEventID: request.header("last-event-id"), selector: selector, connection: connection)
        else {
            return .response(
                counted(
                    OFREPService.generalErrorResponse(
                        503,
                        "the server has as many event streams as it serves (\(core.limits.eventStreams)) or is"
                            + " shutting down; poll the bulk endpoint, or connect again later",
                        headers: [("Retry-After", "30")]), .events))
        }
        core.metrics.record(.events, status: 200)
        let hub = core.hub
        return .eventStream(
            client,
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                // Proxies such as nginx would otherwise hold events back in their buffers.
                ("X-Accel-Buffering", "no"),
            ], ended: { hub.removeClient(client) })
    }
}
