/// One flag or preference as declared in a definitions file: its type, default, constraints,
/// per-environment values, variants and targeting, and where each came from.
///
/// Definitions are immutable values produced by ``DefinitionLoader``. Both forms of the file
/// format produce the same model: the compact form (`type`, `default`) and flagd's long form
/// (`state`, `variants`, `defaultVariant`, `targeting`).
public struct FlagDefinition: Sendable {
    /// Whether a key is a flag (set by developers and operators) or a user preference.
    public enum Kind: String, Sendable, Hashable {
        /// Declared under `flags:`.
        case flag
        /// Declared under `preferences:`; the user's own value wins over files.
        case preference
    }

    /// The full key, namespace included: `beneficiaries.showPendingList`.
    public let key: String
    /// Flag or preference.
    public let kind: Kind
    /// The value type.
    public let type: FlagType
    /// The definition's default (layer 2 of the resolution order), or `nil` when a flagd
    /// flag has no `defaultVariant` and the code default applies.
    public let defaultValue: LocatedValue?
    /// Named values (flagd variants); empty for compact flags without `variants:`.
    public let variants: [String: JSONValue]
    /// The variant the default comes from, for flags with variants.
    public let defaultVariant: String?
    /// Whether the flag is enabled (`state: DISABLED` makes every read return the code default).
    public let isEnabled: Bool
    /// The targeting rule as written, when there is one.
    public let targeting: LocatedValue?
    /// Values given inline under `environments:`, by environment name.
    public let environmentValues: [String: LocatedValue]
    /// Allowed values, from `enum:`.
    public let allowedValues: [JSONValue]?
    /// Inclusive lower bound, from `minimum:`.
    public let minimum: Double?
    /// Inclusive upper bound, from `maximum:`.
    public let maximum: Double?
    /// What the flag does, from `description:`.
    public let summary: String?
    /// Who owns it, from `owner:`.
    public let owner: String?
    /// When it should be removed, from `expires:` (a `YYYY-MM-DD` day).
    public let expires: CalendarDay?
    /// Flag metadata with the file's flag-set metadata merged underneath.
    public let metadata: [String: JSONValue]
    /// The Swift type `ensign generate` declares the key with, from `swiftType:` (for example
    /// `Banner` or `Wallet.Banner`); `nil` for the type's usual Swift type.
    public let swiftType: String?
    /// Where the key is declared.
    public let location: SourcePosition
    /// The YAML of the targeting rule, kept so rule problems can point at exact positions.
    let targetingNode: YAMLNode?
    /// The targeting rule compiled against the definitions' evaluators, when it has one and it compiles.
    public internal(set) var compiledTargeting: TargetingRule?
    /// Why the targeting rule could not be compiled; such a flag resolves with `PARSE_ERROR`.
    public internal(set) var targetingProblem: String?

    init(
        key: String, kind: Kind, type: FlagType, defaultValue: LocatedValue?, variants: [String: JSONValue],
        defaultVariant: String?, isEnabled: Bool, targeting: LocatedValue?, targetingNode: YAMLNode?,
        environmentValues: [String: LocatedValue], allowedValues: [JSONValue]?, minimum: Double?, maximum: Double?,
        summary: String?, owner: String?, expires: CalendarDay?, metadata: [String: JSONValue],
        location: SourcePosition, swiftType: String? = nil
    ) {
        self.key = key
        self.kind = kind
        self.type = type
        self.defaultValue = defaultValue
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.isEnabled = isEnabled
        self.targeting = targeting
        self.targetingNode = targetingNode
        self.environmentValues = environmentValues
        self.allowedValues = allowedValues
        self.minimum = minimum
        self.maximum = maximum
        self.summary = summary
        self.owner = owner
        self.expires = expires
        self.metadata = metadata
        self.location = location
        self.swiftType = swiftType
    }
}

extension FlagDefinition {
    /// A definition made in code from a value (for contexts built from plain values).
    init(inMemoryKey key: String, type: FlagType, default value: JSONValue) {
        self.init(
            key: key, kind: .flag, type: type, defaultValue: LocatedValue(value, at: .unknown("<values>")),
            variants: [:], defaultVariant: nil, isEnabled: true, targeting: nil, targetingNode: nil,
            environmentValues: [:], allowedValues: nil, minimum: nil, maximum: nil, summary: nil, owner: nil,
            expires: nil, metadata: [:], location: .unknown("<values>"))
    }

    /// The name of the variant whose value is `value`, if the flag has one.
    public func variantName(for value: JSONValue) -> String? {
        if let defaultVariant, variants[defaultVariant] == value { return defaultVariant }
        return variants.keys.sorted().first { variants[$0] == value }
    }

    /// The type and constraints values for this key must meet.
    public var rules: ValueRules {
        ValueRules(type: type, allowedValues: allowedValues, minimum: minimum, maximum: maximum)
    }

    /// The value converted to this key's type, or why it is not acceptable (wrong type, not
    /// in `enum`, out of bounds).
    public func check(_ value: JSONValue) -> Result<JSONValue, ValueProblem> {
        rules.check(value)
    }
}
