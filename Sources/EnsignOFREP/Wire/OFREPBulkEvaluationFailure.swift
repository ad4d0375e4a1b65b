import Ensign

/// The body of a bulk evaluation's 400: the whole request failed (a body that is not an
/// evaluation request, say), as opposed to one flag's failure inside a 200.
///
/// ```swift
/// print(OFREPBulkEvaluationFailure(errorCode: .invalidContext, errorDetails: "context: missing").jsonText)
/// // {"errorCode":"INVALID_CONTEXT","errorDetails":"context: missing"}
/// ```
public struct OFREPBulkEvaluationFailure: Sendable, Hashable {
    /// What went wrong.
    public var errorCode: OFREPErrorCode
    /// A sentence about the problem, for logs.
    public var errorDetails: String?

    /// Creates a failure.
    public init(errorCode: OFREPErrorCode, errorDetails: String? = nil) {
        self.errorCode = errorCode
        self.errorDetails = errorDetails
    }

    /// The failure as a JSON object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["errorCode": .string(errorCode.rawValue)]
        if let errorDetails { members["errorDetails"] = .string(errorDetails) }
        return .object(members)
    }

    /// The failure as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPBulkEvaluationFailure {
    /// Reads a failure from a parsed body.
    ///
    /// - Throws: ``OFREPWireError`` for a missing `errorCode` or a member of the wrong type.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        self.init(
            errorCode: OFREPErrorCode(rawValue: try body.requiredString("errorCode")),
            errorDetails: try body.optionalString("errorDetails"))
    }

    /// Parses and reads a failure body; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
