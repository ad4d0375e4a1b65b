import Ensign
import EnsignSupport

/// Answers OFREP requests from an ``AppContext``: the single and bulk evaluation endpoints,
/// the configuration endpoint, and their errors, with no sockets involved.
///
/// Every request is evaluated as a child context of `context` made for the request's
/// evaluation context (``AppContext/makeChild(label:evaluationContext:)``) would evaluate it —
/// from the server's current snapshot, without making the child — so everything the server's
/// context has — environment, deployment files, fleet layer, live overrides — applies, and each
/// request's targeting sees its own context.
///
/// ```swift
/// let service = OFREPService(context: context)
/// let response = service.respond(
///     to: OFREPHTTPRequest(method: "POST", target: "/ofrep/v1/evaluate/flags/banner", body: Array(#"{"context": {}}"#.utf8)))
/// response.status  // 200
/// ```
///
/// | request | answer |
/// |---|---|
/// | `POST /ofrep/v1/evaluate/flags/{key}` | 200 success; 404 `FLAG_NOT_FOUND`; 400 a failure (a bad body is `INVALID_CONTEXT`, a broken flag `PARSE_ERROR`, …) |
/// | `POST /ofrep/v1/evaluate/flags` | 200 every flag, with `ETag`; 304 when `If-None-Match` names the current tag; 400 a bad body |
/// | `GET /ofrep/v1/configuration` | 200 the server's capabilities |
/// | no or wrong credentials, when configured | 401, 403 |
/// | body over the limit; other method; other path | 413; 405 with `Allow`; 404 |
public final class OFREPService: Sendable {
    /// The context requests are evaluated against (through a child each).
    public let context: AppContext
    /// How it answers.
    public let options: OFREPServiceOptions
    /// The configuration digest of the newest snapshot asked about, until the generation moves.
    private let configurationDigests = LockedState<(generation: UInt64, digest: String)?>(nil)
    /// The digests of flag sets asked for at one generation; a few sets, so a client that sends
    /// many selectors is answered without growing it (see ``setDigestLimit``).
    private let setDigests = LockedState<(generation: UInt64, digests: [OFREPFlagSetSelector: String])>((0, [:]))
    /// How many flag sets' digests are kept per generation.
    private static let setDigestLimit = 64

    /// The path prefix of the single evaluation endpoint.
    static let singlePrefix = "/ofrep/v1/evaluate/flags/"
    /// The path of the bulk evaluation endpoint.
    static let bulkPath = "/ofrep/v1/evaluate/flags"
    /// The path of the configuration endpoint.
    static let configurationPath = "/ofrep/v1/configuration"

    /// Creates a service over `context`.
    public init(context: AppContext, options: OFREPServiceOptions = OFREPServiceOptions()) {
        self.context = context
        self.options = options
    }

    /// Answers one request. Never throws and never traps on what a client sends: whatever
    /// the bytes, the answer is a status and an OFREP body.
    public func respond(to request: OFREPHTTPRequest) -> OFREPHTTPResponse {
        respond(to: request, evaluated: { _ in })
    }

    /// Answers one request, handing `evaluated` each flag's details as it is evaluated (one for
    /// a single evaluation, every flag for a bulk one, none for a 304): a server's metrics.
    package func respond(
        to request: OFREPHTTPRequest, route: Route? = nil, evaluated: (ResolutionDetails<JSONValue>) -> Void
    ) -> OFREPHTTPResponse {
        let route = route ?? Route(path: request.path)
        if case .unknown = route {
            return Self.generalError(404, "no OFREP endpoint at '\(request.path)'; see /ofrep/v1/evaluate/flags")
        }
        guard request.method == route.method else {
            return Self.generalError(
                405, "\(route.method) only, not \(request.method)", headers: [("Allow", route.method)])
        }
        if let refusal = authorizationFailure(for: request) { return refusal }
        guard request.body.count <= options.maximumBodyBytes else {
            return Self.generalError(413, "the body is over \(options.maximumBodyBytes) bytes")
        }
        switch route {
        case .single(let encodedKey):
            return evaluateSingle(encodedKey: encodedKey, request: request, evaluated: evaluated)
        case .bulk: return evaluateBulk(request, evaluated: evaluated)
        case .configuration: return .json(200, configuration.jsonText)
        case .unknown: return Self.generalError(404, "no OFREP endpoint at '\(request.path)'")
        }
    }

    /// The 401 (no credentials) or 403 (wrong ones) for a request, when the service has
    /// credentials and the request does not carry them; `nil` when it may go on. The HTTP
    /// server checks its event stream with it too.
    public func authorizationFailure(for request: OFREPHTTPRequest) -> OFREPHTTPResponse? {
        guard let credentials = options.credentials else { return nil }
        switch credentials.check(request) {
        case .accepted: return nil
        case .missing:
            return Self.generalError(
                401, "send the token as 'Authorization: Bearer <token>' or 'X-API-Key: <token>'",
                headers: [("WWW-Authenticate", "Bearer")])
        case .wrong: return Self.generalError(403, "the token is not accepted")
        }
    }

    /// What the configuration endpoint says.
    public var configuration: OFREPConfigurationResponse {
        OFREPConfigurationResponse(
            name: options.name, isPollingEnabled: true,
            minimumPollingIntervalMilliseconds: options.minimumPollingIntervalMilliseconds,
            supportedTypes: ["boolean", "string", "integer", "float", "object"])
    }

    /// The digest of the configuration requests are evaluated against now: 16 hexadecimal digits
    /// that change when any flag's definition, value from the files or the fleet, override, or the
    /// server's own evaluation context changes, and only then.
    ///
    /// It is made from content alone (``OFREPEntityTag``), so every replica serving the same
    /// configuration computes the same one: the bulk `ETag`s and the event ids built on it are
    /// understood by any replica behind a load balancer.
    public var configurationDigest: String { configurationDigest(of: context.untrackedSnapshot) }

    /// The configuration digest of `snapshot` (the server's context's, or a child's, which
    /// shares its parent's configuration); computed once per generation.
    package func configurationDigest(of snapshot: ContextSnapshot) -> String {
        if let cached = configurationDigests.withLock({ $0 }), cached.generation == snapshot.generation {
            return cached.digest
        }
        let digest = snapshot.contentDigest(including: { $0.kind != .preference }).hexadecimal
        configurationDigests.withLock { cached in
            if (cached?.generation ?? 0) <= snapshot.generation { cached = (snapshot.generation, digest) }
        }
        return digest
    }

    /// The configuration digest of the flag set `selector` selects in `snapshot` (of every
    /// flag when `nil`): it moves only when that set's flags do, so a set's `ETag` and its
    /// event stream ignore changes elsewhere. Computed once per generation and set.
    package func configurationDigest(of snapshot: ContextSnapshot, selector: OFREPFlagSetSelector?) -> String {
        guard let selector else { return configurationDigest(of: snapshot) }
        let cached = setDigests.withLock { cache in
            cache.generation == snapshot.generation ? cache.digests[selector] : nil
        }
        if let cached { return cached }
        let digest = snapshot.contentDigest(including: { $0.kind != .preference && selector.selects($0) })
            .hexadecimal
        setDigests.withLock { cache in
            if cache.generation < snapshot.generation { cache = (snapshot.generation, [:]) }
            if cache.generation == snapshot.generation, cache.digests.count < Self.setDigestLimit {
                cache.digests[selector] = digest
            }
        }
        return digest
    }

    /// The server-sent event announcing the configuration with the digest
    /// `configurationDigest` (the current one when `nil`): `refetchEvaluation`, its id the digest.
    public func changeEvent(configurationDigest: String? = nil, lastModifiedSeconds: Int? = nil)
        -> OFREPServerSentEvent
    {
        let digest = configurationDigest ?? self.configurationDigest
        return OFREPServerSentEvent(
            id: digest,
            data: OFREPEventData(
                type: OFREPEventData.refetchEvaluationType, etag: OFREPEntityTag.configurationTag(digest: digest),
                lastModified: lastModifiedSeconds.map(OFREPEventData.LastModified.seconds)))
    }

    /// A JSON response with a general error body (`errorDetails` alone), for answers about
    /// the request rather than a flag: 401, 405, 413, 431, 503, ….
    public static func generalErrorResponse(
        _ status: Int, _ details: String, headers: [(name: String, value: String)] = []
    ) -> OFREPHTTPResponse {
        generalError(status, details, headers: headers)
    }

    /// A general error body (`errorDetails` alone).
    static func generalError(
        _ status: Int, _ details: String, headers: [(name: String, value: String)] = []
    ) -> OFREPHTTPResponse {
        .json(status, OFREPGeneralError(errorDetails: details).jsonText, headers: headers)
    }
}

/// Which endpoint a path names; `package` so the HTTP server, which labels its metrics with it,
/// reads each path once.
package enum Route: Equatable {
    case single(encodedKey: Substring)
    case bulk
    case configuration
    case unknown

    package init(path: String) {
        if path == OFREPService.bulkPath {
            self = .bulk
        } else if path.hasPrefix(OFREPService.singlePrefix), path.utf8.count > OFREPService.singlePrefix.utf8.count {
            // By UTF-8 offset: dropping characters walks the string grapheme by grapheme.
            self = .single(encodedKey: Substring(path.utf8.dropFirst(OFREPService.singlePrefix.utf8.count)))
        } else if path == OFREPService.configurationPath {
            self = .configuration
        } else {
            self = .unknown
        }
    }

    /// The one method the endpoint takes.
    var method: String {
        switch self {
        case .configuration: "GET"
        default: "POST"
        }
    }
}
