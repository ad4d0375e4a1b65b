import Ensign

/// How an ``OFREPService`` answers: who may ask, what it advertises, and how large a body it reads.
///
/// ```swift
/// var options = OFREPServiceOptions()
/// options.credentials = try OFREPCredentials(token: token)
/// options.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
/// ```
public struct OFREPServiceOptions: Sendable {
    /// The token a request must carry; `nil` accepts every request (loopback use, or a proxy
    /// in front that authenticates).
    public var credentials: OFREPCredentials?
    /// The path of the server-sent-events stream advertised in bulk responses' `eventStreams`
    /// (relative to the OFREP base URL); `nil` advertises none. Set it when the HTTP server
    /// serves the stream.
    public var eventStreamPath: String?
    /// The `inactivityDelaySec` advertised with the event stream.
    public var eventStreamInactivitySeconds: Int
    /// The shortest poll interval the configuration endpoint asks clients for, in milliseconds.
    public var minimumPollingIntervalMilliseconds: Int
    /// The largest request body read; a larger one gets 413. Default: 64 KiB.
    public var maximumBodyBytes: Int
    /// The name the configuration endpoint gives.
    public var name: String
    /// Whether a success without a variant says `"variant": null` instead of leaving the member
    /// out, for OpenFeature's Python OFREP provider 0.3.0, which reads it unconditionally (and
    /// turns a response without one into a `GENERAL` error). The specification says a variant
    /// is a string when present, so the default, `false`, leaves it out.
    public var writesNullVariant: Bool

    /// Context every evaluation gets, whatever the request says (flagd's `--context-value`):
    /// what does not change while the server runs, such as its region. It wins over the
    /// request's own context, as flagd merges them.
    public var staticContext: [String: JSONValue]
    /// Request headers whose values become context attributes, by header name (any case):
    /// `["x-user-email": "email"]` (flagd's `--context-from-header`). They win over the
    /// static context and the request's own, as flagd merges them; a header the request does
    /// not carry adds nothing.
    public var contextFromHeaders: [String: String]

    /// The event stream's path when the HTTP server serves one.
    public static let defaultEventStreamPath = "/ofrep/v1/events"

    /// Options with no credentials, no event stream, a 1 s minimum poll interval, a 64 KiB body
    /// limit and no context enrichment.
    public init() {
        credentials = nil
        eventStreamPath = nil
        eventStreamInactivitySeconds = 120
        minimumPollingIntervalMilliseconds = 1000
        maximumBodyBytes = 64 * 1024
        name = "Ensign"
        writesNullVariant = false
        staticContext = [:]
        contextFromHeaders = [:]
    }
}
