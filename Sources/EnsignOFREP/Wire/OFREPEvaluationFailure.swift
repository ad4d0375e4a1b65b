import Ensign

/// A flag that could not be evaluated: the body of a single evaluation's 400 or 404
/// (`FLAG_NOT_FOUND`), and a failure item of a bulk response's `flags`.
///
/// ```swift
/// let failure = OFREPEvaluationFailure(key: "missing", errorCode: .flagNotFound, errorDetails: "flag 'missing' is not defined")
/// print(failure.jsonText)  // {"errorCode":"FLAG_NOT_FOUND","errorDetails":"flag 'missing' is not defined","key":"missing"}
/// ```
public struct OFREPEvaluationFailure: Sendable, Hashable {
    /// The flag's key.
    public var key: String
    /// What went wrong.
    public var errorCode: OFREPErrorCode
    /// A sentence about the problem, for logs.
    public var errorDetails: String?
    /// The flag's metadata: Booleans, strings and numbers.
    public var metadata: [String: JSONValue]

    /// Creates a failure.
    public init(
        key: String, errorCode: OFREPErrorCode, errorDetails: String? = nil, metadata: [String: JSONValue] = [:]
    ) {
        self.key = key
        self.errorCode = errorCode
        self.errorDetails = errorDetails
        self.metadata = metadata
    }

    /// The failure as a JSON object; `errorDetails` and an empty `metadata` are left out.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["key": .string(key), "errorCode": .string(errorCode.rawValue)]
        if let errorDetails { members["errorDetails"] = .string(errorDetails) }
        if !metadata.isEmpty { members["metadata"] = .object(metadata) }
        return .object(members)
    }

    /// The failure as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPEvaluationFailure {
    /// Reads a failure from a parsed body or a `flags` item.
    ///
    /// - Parameter path: where the object is, for errors (`flags[2]`).
    /// - Throws: ``OFREPWireError`` for a missing `key` or `errorCode`, or a member of the
    ///   wrong type.
    public init(json: JSONValue, path: String = "") throws(OFREPWireError) {
        let object = try OFREPObjectReader(json, path: path)
        self.init(
            key: try object.requiredString("key"),
            errorCode: OFREPErrorCode(rawValue: try object.requiredString("errorCode")),
            errorDetails: try object.optionalString("errorDetails"), metadata: try object.metadata())
    }

    /// Parses and reads a single evaluation's 400 or 404 body; see ``init(json:path:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
