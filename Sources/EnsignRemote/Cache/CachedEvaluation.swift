import Ensign
import EnsignOFREP

/// The last good bulk evaluation, as the cache file keeps it: the flags (and the flag set's
/// metadata), the `ETag` that came with them and when they were written. Never the event
/// stream URLs, which may carry credentials (ADR 0008).
package struct CachedEvaluation: Sendable, Hashable {
    /// The flags and metadata, without event streams.
    package var response: OFREPBulkEvaluationResponse
    /// The response's `ETag`, sent as `If-None-Match` by the first request after a start.
    package var etag: String?
    /// When the evaluation was written.
    package var writtenAt: WallClockTime

    /// The format's version; a file of another version is not used (and is replaced on the next write).
    static let version = 1

    /// An evaluation to keep; its event streams are dropped.
    package init(response: OFREPBulkEvaluationResponse, etag: String?, writtenAt: WallClockTime) {
        self.response = OFREPBulkEvaluationResponse(flags: response.flags, metadata: response.metadata)
        self.etag = etag
        self.writtenAt = writtenAt
    }

    /// The file's JSON: `{"version":1,"cacheKey":…,"etag":…,"writtenAt":…,"data":{"flags":[…]}}`.
    package func json(cacheKey: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "version": .int(Self.version), "cacheKey": .string(cacheKey),
            "writtenAt": .double(writtenAt.secondsSince1970), "data": response.json,
        ]
        if let etag { members["etag"] = .string(etag) }
        return .object(members)
    }

    /// What a file holds: the evaluation when it is this version's and for `cacheKey`, `nil`
    /// when it is a valid file for another context, server or version.
    ///
    /// - Throws: why the file is not a cache file at all (it is then set aside).
    package static func read(_ json: JSONValue, cacheKey: String) throws(OFREPWireError) -> CachedEvaluation? {
        guard case .object(let members) = json else {
            throw OFREPWireError(path: "", message: "the cache file does not hold a JSON object")
        }
        guard case .int(let version)? = members["version"] else {
            throw OFREPWireError(path: "version", message: "missing or not an integer")
        }
        guard version == Self.version else { return nil }
        guard case .string(let key)? = members["cacheKey"] else {
            throw OFREPWireError(path: "cacheKey", message: "missing or not a string")
        }
        guard let written = members["writtenAt"]?.numericValue, written.isFinite else {
            throw OFREPWireError(path: "writtenAt", message: "missing or not a number")
        }
        var etag: String?
        switch members["etag"] {
        case nil: break
        case .string(let text)?: etag = text
        case _?: throw OFREPWireError(path: "etag", message: "not a string")
        }
        guard let data = members["data"] else { throw OFREPWireError(path: "data", message: "missing") }
        let response = try OFREPBulkEvaluationResponse(json: data)
        guard key == cacheKey else { return nil }
        return CachedEvaluation(response: response, etag: etag, writtenAt: WallClockTime(secondsSince1970: written))
    }

    /// The key that ties a cached evaluation to its server, context and selector: a 64-bit
    /// FNV-1a hash of the base URL, the context's JSON and the selector, so the file never holds
    /// the targeting key itself, and a context, server or flag set change never serves another's
    /// values.
    package static func cacheKey(baseURL: String, context: EvaluationContext, selector: String? = nil) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let selection = selector.map { "\n" + $0 } ?? ""
        for byte in "ofrep-cache\n\(baseURL)\n\(context.jsonValue.jsonText)\(selection)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
