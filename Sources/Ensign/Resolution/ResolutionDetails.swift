/// Everything about one key's current value: the value, variant, reason, error, metadata
/// and where it came from (OpenFeature's evaluation details, plus provenance).
///
/// ```swift
/// let details = context.details(for: .pageSize)
/// print(details.value, details.reason, details.source)  // 50 STATIC environment flags/environments/development.yaml:3:27
/// ```
public struct ResolutionDetails<Value: FlagValueConvertible>: Sendable, Equatable {
    /// The full key.
    public var key: String
    /// The value the code sees.
    public var value: Value
    /// The variant, for flags with variants.
    public var variant: String?
    /// Why the key has this value.
    public var reason: ResolutionReason
    /// What went wrong, when the code default applies because of a problem.
    public var errorCode: ResolutionErrorCode?
    /// A sentence about the problem.
    public var errorMessage: String?
    /// The flag's metadata (flag-set metadata merged under the flag's own).
    public var metadata: [String: JSONValue]
    /// Where the value came from.
    public var source: ValueSource
}

extension ResolutionDetails {
    /// The details of `entry` read as `Value`: the code default when there is no value, and
    /// `TYPE_MISMATCH` when the value has another type.
    init(key: String, entry: ResolvedEntry, definition: FlagDefinition?, defaultValue: Value) {
        self.init(
            key: key, value: defaultValue, variant: entry.variant, reason: entry.reason, errorCode: entry.errorCode,
            errorMessage: entry.errorMessage, metadata: definition?.metadata ?? [:], source: entry.source)
        guard let resolved = entry.value else { return }
        if let typed = Value(flagValue: resolved) {
            value = typed
            return
        }
        variant = nil
        reason = .error
        errorCode = .typeMismatch
        errorMessage =
            "'\(key)' is \(definition?.type.withArticle ?? "a value of another type"), but the code reads it as"
            + " \(Value.flagType.withArticle)"
        source = .codeDefault
    }
}

extension ResolutionDetails<JSONValue> {
    /// The details of `entry` without a Swift type: `value` is `null` when the code default
    /// applies (no flag value is ever `null`).
    init(key: String, entry: ResolvedEntry, definition: FlagDefinition?) {
        self.init(
            key: key, value: entry.value ?? .null, variant: entry.variant, reason: entry.reason,
            errorCode: entry.errorCode, errorMessage: entry.errorMessage, metadata: definition?.metadata ?? [:],
            source: entry.source)
    }
}
