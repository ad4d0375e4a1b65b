import Ensign

/// The body of the optional configuration endpoint, `GET /ofrep/v1/configuration`: what the
/// server supports, so a provider can configure itself.
///
/// The endpoint comes from OFREP's earlier drafts (the current `openapi.yaml` no longer
/// lists it, and providers treat it as optional); the shape is theirs:
///
/// ```json
/// {"name": "Ensign",
///  "capabilities": {"cacheInvalidation": {"polling": {"enabled": true, "minPollingIntervalMs": 1000}},
///                   "flagEvaluation": {"supportedTypes": ["boolean", "string", "integer", "float", "object"]}}}
/// ```
public struct OFREPConfigurationResponse: Sendable, Hashable {
    /// The flag management system's name.
    public var name: String?
    /// Whether clients may poll the bulk endpoint for changes.
    public var isPollingEnabled: Bool
    /// The shortest poll interval the server wants, in milliseconds.
    public var minimumPollingIntervalMilliseconds: Int?
    /// The flag types it evaluates: `boolean`, `string`, `integer`, `float`, `object`.
    public var supportedTypes: [String]

    /// Creates a configuration.
    public init(
        name: String?, isPollingEnabled: Bool, minimumPollingIntervalMilliseconds: Int?, supportedTypes: [String]
    ) {
        self.name = name
        self.isPollingEnabled = isPollingEnabled
        self.minimumPollingIntervalMilliseconds = minimumPollingIntervalMilliseconds
        self.supportedTypes = supportedTypes
    }

    /// The body as a JSON object.
    public var json: JSONValue {
        var polling: [String: JSONValue] = ["enabled": .bool(isPollingEnabled)]
        if let minimumPollingIntervalMilliseconds {
            polling["minPollingIntervalMs"] = .int(minimumPollingIntervalMilliseconds)
        }
        var members: [String: JSONValue] = [
            "capabilities": .object([
                "cacheInvalidation": .object(["polling": .object(polling)]),
                "flagEvaluation": .object(["supportedTypes": .array(supportedTypes.map(JSONValue.string))]),
            ])
        ]
        if let name { members["name"] = .string(name) }
        return .object(members)
    }

    /// The body as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPConfigurationResponse {
    /// Reads a configuration; every member is optional (polling is then taken as enabled and
    /// the supported types as unknown, an empty list).
    ///
    /// - Throws: ``OFREPWireError`` for a member of the wrong type.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        var isPollingEnabled = true
        var interval: Int?
        var types: [String] = []
        if let value = body.members["capabilities"] {
            let capabilities = try OFREPObjectReader(value, path: "capabilities")
            if let value = capabilities.members["cacheInvalidation"] {
                let invalidation = try OFREPObjectReader(value, path: capabilities.path(of: "cacheInvalidation"))
                if let value = invalidation.members["polling"] {
                    let polling = try OFREPObjectReader(value, path: invalidation.path(of: "polling"))
                    isPollingEnabled = try polling.optionalBool("enabled") ?? true
                    interval = try polling.optionalInt("minPollingIntervalMs")
                }
            }
            if let value = capabilities.members["flagEvaluation"] {
                let evaluation = try OFREPObjectReader(value, path: capabilities.path(of: "flagEvaluation"))
                for (index, element) in (try evaluation.optionalArray("supportedTypes") ?? []).enumerated() {
                    guard case .string(let type) = element else {
                        throw OFREPWireError(
                            path: evaluation.path(of: "supportedTypes") + "[\(index)]",
                            message: "expected a string, found \(OFREPObjectReader.describe(element))")
                    }
                    types.append(type)
                }
            }
        }
        self.init(
            name: try body.optionalString("name"), isPollingEnabled: isPollingEnabled,
            minimumPollingIntervalMilliseconds: interval, supportedTypes: types)
    }

    /// Parses and reads a configuration body; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
