import Ensign

/// The body of both evaluation requests, `POST /ofrep/v1/evaluate/flags/{key}` and
/// `POST /ofrep/v1/evaluate/flags`: the evaluation context to evaluate for.
///
/// ```swift
/// let request = try OFREPEvaluationRequest(jsonText: #"{"context": {"targetingKey": "user-1", "plan": "pro"}}"#)
/// request.evaluationContext.targetingKey  // "user-1"
/// print(request.jsonText)                 // {"context":{"plan":"pro","targetingKey":"user-1"}}
/// ```
///
/// The specification marks `context` and its `targetingKey` required, but OpenFeature's
/// providers send a context without a targeting key for anonymous users, and the Python
/// provider (0.3.0) sends `{}` when there is no context at all; so both are optional here
/// (no `context` is the empty context), and each must have its type when present. A flag
/// that needs a targeting key (a `fractional` split) reports that at evaluation.
public struct OFREPEvaluationRequest: Sendable, Hashable {
    /// The context's members: `targetingKey` and the attributes, as sent.
    public var context: [String: JSONValue]

    /// Creates a request for a context given as its JSON members.
    public init(context: [String: JSONValue] = [:]) {
        self.context = context
    }

    /// Creates a request for an evaluation context.
    public init(evaluationContext: EvaluationContext) {
        var members = evaluationContext.attributes
        if let key = evaluationContext.targetingKey { members["targetingKey"] = .string(key) }
        self.init(context: members)
    }

    /// The context as targeting rules see it: `targetingKey` as the targeting key, every other
    /// member an attribute.
    public var evaluationContext: EvaluationContext { EvaluationContext(json: .object(context)) }

    /// The request as a JSON value.
    public var json: JSONValue { .object(["context": .object(context)]) }

    /// The request as compact JSON text, members sorted.
    public var jsonText: String { json.jsonText }
}

extension OFREPEvaluationRequest {
    /// Reads a request from a parsed body.
    ///
    /// - Throws: ``OFREPWireError`` when the body is not an object, `context` is not an
    ///   object, or `context.targetingKey` is present but not a string.
    public init(json: JSONValue) throws(OFREPWireError) {
        let body = try OFREPObjectReader(json, path: "")
        let context = try OFREPObjectReader(body.members["context"] ?? .object([:]), path: "context")
        _ = try context.optionalString("targetingKey")
        self.init(context: context.members)
    }

    /// Parses and reads a request body; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }

    /// Parses and reads a request body; see ``init(json:)``.
    public init(jsonText: String) throws(OFREPWireError) {
        try self.init(jsonBytes: Array(jsonText.utf8))
    }
}
