import Ensign

/// The body of a response that is about the request rather than a flag — 401, 403, 405,
/// 413, 429, 500 — with a sentence for logs (the specification's `generalErrorResponse`).
///
/// ```swift
/// print(OFREPGeneralError(errorDetails: "missing or wrong bearer token").jsonText)
/// // {"errorDetails":"missing or wrong bearer token"}
/// ```
public struct OFREPGeneralError: Sendable, Hashable {
    /// What went wrong.
    public var errorDetails: String?

    /// Creates an error body.
    public init(errorDetails: String?) {
        self.errorDetails = errorDetails
    }

    /// The body as a JSON object.
    public var json: JSONValue {
        .object(errorDetails.map { ["errorDetails": .string($0)] } ?? [:])
    }

    /// The body as compact JSON text.
    public var jsonText: String { json.jsonText }
}

extension OFREPGeneralError {
    /// Reads an error body.
    ///
    /// - Throws: ``OFREPWireError`` when the body is not an object or `errorDetails` is not a string.
    public init(json: JSONValue) throws(OFREPWireError) {
        self.init(errorDetails: try OFREPObjectReader(json, path: "").optionalString("errorDetails"))
    }

    /// Parses and reads an error body; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
