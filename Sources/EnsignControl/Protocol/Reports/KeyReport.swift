import Ensign

/// One key's current value with everything that explains it: the result of `get`, `set`,
/// `toggle`, and each row of `list`.
///
/// The members `key`, `value`, `variant`, `reason`, `errorCode`, `errorMessage`, `metadata`
/// and `source` are those of `ensign get --json`.
public struct KeyReport: Codable, Sendable, Hashable {
    /// The full key.
    public var key: String
    /// `flag` or `preference`; absent for a key no definition has.
    public var kind: String?
    /// `bool`, `int`, `double`, `string` or `object`; absent for a key no definition has.
    public var type: String?
    /// The value in force; `null` when the code default applies.
    public var value: JSONValue
    /// The variant, for flags with variants.
    public var variant: String?
    /// Why the key has this value: `STATIC`, `OVERRIDE`, `TARGETING_MATCH`, …
    public var reason: String
    /// What went wrong, when the code default applies because of a problem: `FLAG_NOT_FOUND`, …
    public var errorCode: String?
    /// A sentence about the problem.
    public var errorMessage: String?
    /// The flag's metadata.
    public var metadata: [String: JSONValue]
    /// Where the value came from.
    public var source: SourceReport
    /// Whether a runtime override is in force for the key.
    public var isOverridden: Bool
    /// Whether that override is saved in the overrides file.
    public var isPersisted: Bool
    /// The definition's description.
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case key, kind, type, value, variant, reason, errorCode, errorMessage, metadata, source, description
        case isOverridden = "overridden"
        case isPersisted = "persisted"
    }

    /// Creates a report.
    public init(
        key: String, kind: String?, type: String?, value: JSONValue, variant: String? = nil, reason: String,
        errorCode: String? = nil, errorMessage: String? = nil, metadata: [String: JSONValue] = [:],
        source: SourceReport, isOverridden: Bool = false, isPersisted: Bool = false, description: String? = nil
    ) {
        self.key = key
        self.kind = kind
        self.type = type
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
        self.source = source
        self.isOverridden = isOverridden
        self.isPersisted = isPersisted
        self.description = description
    }

    /// Reads a report, treating an absent `value` as `null` (the code default applies).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        variant = try container.decodeIfPresent(String.self, forKey: .variant)
        reason = try container.decode(String.self, forKey: .reason)
        errorCode = try container.decodeIfPresent(String.self, forKey: .errorCode)
        errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
        metadata = try container.decodeIfPresent([String: JSONValue].self, forKey: .metadata) ?? [:]
        source = try container.decode(SourceReport.self, forKey: .source)
        isOverridden = try container.decodeIfPresent(Bool.self, forKey: .isOverridden) ?? false
        isPersisted = try container.decodeIfPresent(Bool.self, forKey: .isPersisted) ?? false
        description = try container.decodeIfPresent(String.self, forKey: .description)
    }
}
