import Ensign

/// One item of a bulk response's `flags`: a success or a failure.
///
/// ```swift
/// for item in response.flags {
///     switch item {
///     case .success(let success): cache[success.key] = success.value
///     case .failure(let failure): log(failure.errorCode)
///     }
/// }
/// ```
public enum OFREPFlagEvaluation: Sendable, Hashable {
    /// The flag evaluated.
    case success(OFREPEvaluationSuccess)
    /// The flag could not be evaluated.
    case failure(OFREPEvaluationFailure)

    /// The flag's key.
    public var key: String {
        switch self {
        case .success(let success): success.key
        case .failure(let failure): failure.key
        }
    }

    /// The item as a JSON object.
    public var json: JSONValue {
        switch self {
        case .success(let success): success.json
        case .failure(let failure): failure.json
        }
    }
}

extension OFREPFlagEvaluation {
    /// Reads an item: one with an `errorCode` member is a failure, any other a success.
    ///
    /// - Parameter path: where the item is, for errors (`flags[2]`).
    /// - Throws: ``OFREPWireError`` when the item is neither.
    public init(json: JSONValue, path: String = "") throws(OFREPWireError) {
        if case .object(let members) = json, members["errorCode"] != nil {
            self = .failure(try OFREPEvaluationFailure(json: json, path: path))
        } else {
            self = .success(try OFREPEvaluationSuccess(json: json, path: path))
        }
    }
}
