import Ensign

extension OFREPService {
    /// `POST /ofrep/v1/evaluate/flags/{key}`.
    func evaluateSingle(
        encodedKey: Substring, request: OFREPHTTPRequest, evaluated: (ResolutionDetails<JSONValue>) -> Void
    ) -> OFREPHTTPResponse {
        guard let key = PercentDecoding.decode(encodedKey) else {
            return .json(
                400,
                OFREPEvaluationFailure(
                    key: String(encodedKey), errorCode: .general,
                    errorDetails: "the key in the path is not valid percent-encoded UTF-8"
                ).jsonText)
        }
        let (members, selector): ([String: JSONValue], OFREPFlagSetSelector?)
        do { (members, selector) = try readContext(of: request) } catch {
            let failure = OFREPEvaluationFailure(key: key, errorCode: .invalidContext, errorDetails: error.description)
            return .json(400, failure.jsonText)
        }
        let snapshot = context.untrackedSnapshot
        if let selector, let definition = snapshot.definition(forKeyNamed: key), !selector.selects(definition) {
            return .json(
                404,
                OFREPEvaluationFailure(
                    key: key, errorCode: .flagNotFound, errorDetails: "the flag is not in the flag set \(selector)"
                ).jsonText)
        }
        let details = snapshot.details(
            forKeyNamed: key,
            evaluatedFor: snapshot.evaluationContext(mergingRequest: EvaluationContext(jsonObject: consume members)))
        evaluated(details)
        let evaluation = OFREPFlagEvaluation(details: details, writesNullVariant: options.writesNullVariant)
        switch evaluation {
        case .success(let success): return .json(200, bytes: success.jsonBytes)
        case .failure(let failure): return .json(failure.errorCode == .flagNotFound ? 404 : 400, failure.jsonText)
        }
    }

    /// A request's evaluation context, enriched from its headers (before any tag: the tag names
    /// the context the flags are evaluated in), and its flag-set selector; or why either is
    /// unreadable, for an `INVALID_CONTEXT` reply.
    private func readContext(
        of request: OFREPHTTPRequest
    ) throws(ContextProblem) -> (members: [String: JSONValue], selector: OFREPFlagSetSelector?) {
        do {
            var members = try OFREPEvaluationRequest(jsonBytes: request.body).context
            let selector = try OFREPFlagSetSelector.of(request)
            enrich(&members, from: request)
            return (members, selector)
        } catch {
            throw ContextProblem(description: "\(error)")
        }
    }

    /// `POST /ofrep/v1/evaluate/flags`: every flag (preferences are a user's own, not served),
    /// or 304 when the client's tag is current.
    func evaluateBulk(
        _ request: OFREPHTTPRequest, evaluated: (ResolutionDetails<JSONValue>) -> Void
    ) -> OFREPHTTPResponse {
        let (members, selector): ([String: JSONValue], OFREPFlagSetSelector?)
        do { (members, selector) = try readContext(of: request) } catch {
            let failure = OFREPBulkEvaluationFailure(errorCode: .invalidContext, errorDetails: error.description)
            return .json(400, failure.jsonText)
        }
        // One snapshot for the tag and every flag, so the tag names exactly what is sent.
        let snapshot = context.untrackedSnapshot
        let tag = OFREPEntityTag(
            configurationDigest: configurationDigest(of: snapshot, selector: selector), context: members,
            selector: selector)
        let tagHeaders: [(name: String, value: String)] = [("ETag", tag.text), ("Cache-Control", "no-cache")]
        if let ifNoneMatch = request.header("if-none-match"), tag.isMatched(byIfNoneMatch: ifNoneMatch) {
            return OFREPHTTPResponse(status: 304, headers: tagHeaders)
        }
        let merged = snapshot.evaluationContext(mergingRequest: EvaluationContext(jsonObject: members))
        var flags: [OFREPFlagEvaluation] = []
        for key in snapshot.keys {
            guard let definition = snapshot.definition(forKeyNamed: key), definition.kind != .preference,
                selector?.selects(definition) ?? true
            else { continue }
            let details = snapshot.details(forKeyNamed: key, evaluatedFor: merged)
            evaluated(details)
            flags.append(OFREPFlagEvaluation(details: details, writesNullVariant: options.writesNullVariant))
        }
        var streams: [OFREPEventStream] = []
        if let path = options.eventStreamPath {
            streams.append(
                OFREPEventStream(
                    type: OFREPEventStream.serverSentEventsType, endpoint: .init(requestUri: path),
                    inactivityDelaySec: options.eventStreamInactivitySeconds))
        }
        let response = OFREPBulkEvaluationResponse(flags: flags, eventStreams: streams)
        return .json(200, response.jsonText, headers: tagHeaders)
    }

    /// Adds the configured context to a request's (``OFREPServiceOptions/staticContext``,
    /// then ``OFREPServiceOptions/contextFromHeaders``), in flagd's order of precedence:
    /// headers over static values over the request's own context (flagd's architecture
    /// decision "Static and Dynamic Context Enrichment"). Nothing to do, nothing done.
    func enrich(_ members: inout [String: JSONValue], from request: OFREPHTTPRequest) {
        for (key, value) in options.staticContext { members[key] = value }
        for (header, key) in options.contextFromHeaders {
            if let value = request.header(header) { members[key] = .string(value) }
        }
    }
}

/// Why a request's context or selector could not be read, as the reply's `errorDetails` say it.
private struct ContextProblem: Error {
    var description: String
}
