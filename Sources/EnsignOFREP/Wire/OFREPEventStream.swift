import Ensign

/// One entry of a bulk response's `eventStreams` (ADR 0008): where a client connects to hear
/// of changes.
///
/// Exactly one of `url` and `endpoint` is given for a known `type` (`sse`); an entry of an
/// unknown type is kept as read, so a client can ignore it, as the specification asks.
///
/// ```swift
/// let stream = OFREPEventStream(type: "sse", endpoint: .init(requestUri: "/ofrep/v1/events"), inactivityDelaySec: 120)
/// print(stream.jsonText)  // {"endpoint":{"requestUri":"/ofrep/v1/events"},"inactivityDelaySec":120,"type":"sse"}
/// ```
public struct OFREPEventStream: Sendable, Hashable {
    /// The push mechanism; `sse` is the only one defined.
    public var type: String
    /// The whole connection URL (opaque; it may carry credentials, so it is never logged).
    public var url: String?
    /// The connection's origin and request target, for a URL relative to the OFREP base.
    public var endpoint: Endpoint?
    /// Seconds of client inactivity after which the client closes the connection.
    public var inactivityDelaySec: Int?

    /// Where to connect when the origin is the OFREP base URL's (or another).
    public struct Endpoint: Sendable, Hashable {
        /// Scheme, host and port; `nil` means the client's OFREP base URL origin.
        public var origin: String?
        /// The path and query, starting with `/`.
        public var requestUri: String

        /// Creates an endpoint.
        public init(origin: String? = nil, requestUri: String) {
            self.origin = origin
            self.requestUri = requestUri
        }
    }

    /// The server-sent-events type name.
    public static let serverSentEventsType = "sse"

    /// Creates an entry.
    public init(type: String, url: String? = nil, endpoint: Endpoint? = nil, inactivityDelaySec: Int? = nil) {
        self.type = type
        self.url = url
        self.endpoint = endpoint
        self.inactivityDelaySec = inactivityDelaySec
    }

    /// The entry as a JSON object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["type": .string(type)]
        if let url { members["url"] = .string(url) }
        if let endpoint {
            var endpointMembers: [String: JSONValue] = ["requestUri": .string(endpoint.requestUri)]
            if let origin = endpoint.origin { endpointMembers["origin"] = .string(origin) }
            members["endpoint"] = .object(endpointMembers)
        }
        if let inactivityDelaySec { members["inactivityDelaySec"] = .int(inactivityDelaySec) }
        return .object(members)
    }

    /// The entry as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPEventStream {
    /// Reads an entry.
    ///
    /// - Throws: ``OFREPWireError`` for a missing `type`, a member of the wrong type, and, for
    ///   `sse`, both or neither of `url` and `endpoint`, a `requestUri` not starting with `/`,
    ///   or an `inactivityDelaySec` below 1.
    public init(json: JSONValue, path: String = "") throws(OFREPWireError) {
        let object = try OFREPObjectReader(json, path: path)
        let type = try object.requiredString("type")
        guard type == Self.serverSentEventsType else {
            // Unknown types are for newer clients; what they carry is not this reader's to check.
            self.init(type: type)
            return
        }
        let url = try object.optionalString("url")
        var endpoint: Endpoint?
        if let value = object.members["endpoint"] {
            let reader = try OFREPObjectReader(value, path: object.path(of: "endpoint"))
            let requestUri = try reader.requiredString("requestUri")
            guard requestUri.hasPrefix("/") else {
                throw OFREPWireError(path: reader.path(of: "requestUri"), message: "must start with '/'")
            }
            endpoint = Endpoint(origin: try reader.optionalString("origin"), requestUri: requestUri)
        }
        guard (url == nil) != (endpoint == nil) else {
            throw OFREPWireError(path: path, message: "an sse entry needs exactly one of 'url' and 'endpoint'")
        }
        let delay = try object.optionalInt("inactivityDelaySec")
        if let delay, delay < 1 {
            throw OFREPWireError(
                path: object.path(of: "inactivityDelaySec"), message: "must be at least 1, found \(delay)")
        }
        self.init(type: type, url: url, endpoint: endpoint, inactivityDelaySec: delay)
    }
}
