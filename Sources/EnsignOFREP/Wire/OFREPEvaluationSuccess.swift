import Ensign

/// A flag evaluated without an error: the body of a single evaluation's 200, and a success
/// item of a bulk response's `flags`.
///
/// `value` is `nil` when the client's code default applies (ADR 0006, `codeDefaultFlag`):
/// the member is then left out of the JSON, and `reason`, `variant` and `metadata` still say
/// why.
///
/// `variant` is left out when there is none (a disabled flag, a flag without `variants:`): the
/// specification makes it an optional string, and `null` is not one. A reader takes `null` and
/// an absent member alike as no variant. For clients that read the member unconditionally
/// (OpenFeature's Python provider 0.3.0), ``writesNullVariant`` writes `null` instead.
///
/// ```swift
/// let success = OFREPEvaluationSuccess(key: "new-feature", value: .bool(true), reason: "TARGETING_MATCH", variant: "on")
/// print(success.jsonText)  // {"key":"new-feature","reason":"TARGETING_MATCH","value":true,"variant":"on"}
/// ```
public struct OFREPEvaluationSuccess: Sendable, Hashable {
    /// The flag's key.
    public var key: String
    /// The value: a Boolean, string, number or object; `nil` defers to the code default.
    public var value: JSONValue?
    /// Why the flag has this value: `STATIC`, `TARGETING_MATCH`, `SPLIT`, `DISABLED`,
    /// `DEFAULT`, … (an open set of OpenFeature reasons).
    public var reason: String
    /// The variant, for flags with variants.
    public var variant: String?
    /// The flag's metadata: Booleans, strings and numbers.
    public var metadata: [String: JSONValue]
    /// Whether the JSON has `"variant": null` when there is no variant, instead of leaving the
    /// member out: not what the specification allows (a variant is a string when present), but
    /// what a client that reads the member unconditionally needs. Default: `false`.
    public var writesNullVariant: Bool

    /// Creates a success.
    public init(
        key: String, value: JSONValue?, reason: String, variant: String? = nil, metadata: [String: JSONValue] = [:],
        writesNullVariant: Bool = false
    ) {
        self.key = key
        self.value = value
        self.reason = reason
        self.variant = variant
        self.metadata = metadata
        self.writesNullVariant = writesNullVariant
    }

    /// The success as a JSON object; `value`, `variant` and an empty `metadata` are left out
    /// when absent.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["key": .string(key), "reason": .string(reason)]
        if let variant {
            members["variant"] = .string(variant)
        } else if writesNullVariant {
            members["variant"] = .null
        }
        if let value { members["value"] = value }
        if !metadata.isEmpty { members["metadata"] = .object(metadata) }
        return .object(members)
    }

    /// The success as compact JSON text, members sorted.
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// The compact JSON text's UTF-8, members sorted, written straight from the fields: what the
    /// server sends for every single evaluation, without building a ``json`` dictionary to sort.
    package var jsonBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(96)
        output.append(contentsOf: #"{"key":"#.utf8)
        JSONValue.appendQuoted(key, to: &output)
        if !metadata.isEmpty {
            output.append(contentsOf: #","metadata":"#.utf8)
            JSONValue.object(metadata).appendJSON(to: &output, sortingMembers: true)
        }
        output.append(contentsOf: #","reason":"#.utf8)
        JSONValue.appendQuoted(reason, to: &output)
        if let value {
            output.append(contentsOf: #","value":"#.utf8)
            value.appendJSON(to: &output, sortingMembers: true)
        }
        if let variant {
            output.append(contentsOf: #","variant":"#.utf8)
            JSONValue.appendQuoted(variant, to: &output)
        } else if writesNullVariant {
            output.append(contentsOf: #","variant":null"#.utf8)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }
}

extension OFREPEvaluationSuccess {
    /// Reads a success from a parsed body or a `flags` item.
    ///
    /// - Parameter path: where the object is, for errors (`flags[2]`).
    /// - Throws: ``OFREPWireError`` for a missing `key` or `reason`, a member of the wrong
    ///   type, a `null` value (a value is left out, never null, to defer to the code default),
    ///   or metadata that is not Booleans, strings and numbers.
    public init(json: JSONValue, path: String = "") throws(OFREPWireError) {
        let object = try OFREPObjectReader(json, path: path)
        let value = object.members["value"]
        if value == .null {
            throw OFREPWireError(
                path: object.path(of: "value"),
                message: "null is not a flag value; the member is left out to defer to the code default")
        }
        self.init(
            key: try object.requiredString("key"), value: value, reason: try object.requiredString("reason"),
            variant: object.members["variant"] == .null ? nil : try object.optionalString("variant"),
            metadata: try object.metadata())
    }

    /// Parses and reads a single evaluation's 200 body; see ``init(json:path:)``.
    public init(jsonBytes: [UInt8]) throws(OFREPWireError) {
        try self.init(json: try OFREPObjectReader.parse(jsonBytes))
    }
}
