import EnsignYAML

/// One flag or preference as declared in a definitions file: its type, default, constraints,
/// per-environment values, variants and targeting, and where each came from.
///
/// Definitions are immutable values produced by the loader. Both forms of the file
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
    public var key: String { storage.key }
    /// Flag or preference.
    public var kind: Kind { storage.kind }
    /// The value type.
    public var type: FlagType { storage.type }
    /// The definition's default (layer 2 of the resolution order), or `nil` when a flagd
    /// flag has no `defaultVariant` and the code default applies.
    package var defaultValue: LocatedValue? { storage.defaultValue }
    /// Named values (flagd variants), matched by exact name; empty for compact flags without `variants:`.
    public var variants: FlagVariants { storage.rules?.variants ?? .none }
    /// The variant the default comes from, for flags with variants.
    public var defaultVariant: String? { storage.rules?.defaultVariant }
    /// Whether the flag is enabled (`state: DISABLED` makes every read return the code default).
    public var isEnabled: Bool { storage.isEnabled }
    /// The targeting rule as written, when there is one.
    package var targeting: LocatedValue? { storage.rules?.targeting }
    /// Values given inline under `environments:`, by environment name.
    package var environmentValues: [String: LocatedValue] { storage.environmentValues }
    /// Allowed values, from `enum:`.
    public var allowedValues: [JSONValue]? { storage.allowedValues }
    /// Inclusive lower bound, from `minimum:`.
    public var minimum: Double? { storage.minimum }
    /// Inclusive upper bound, from `maximum:`.
    public var maximum: Double? { storage.maximum }
    /// What the flag does, from `description:`.
    public var summary: String? { storage.summary }
    /// Who owns it, from `owner:`.
    public var owner: String? { storage.owner }
    /// When it should be removed, from `expires:` (a `YYYY-MM-DD` day).
    package var expires: CalendarDay? { storage.expires }
    /// Flag metadata with the file's flag-set metadata merged underneath.
    public var metadata: [String: JSONValue] { storage.metadata }
    /// The Swift type `ensign generate` declares the key with, from `swiftType:` (for example
    /// `Banner` or `Wallet.Banner`); `nil` for the type's usual Swift type.
    public var swiftType: String? { storage.swiftType }
    /// Where the key is declared.
    public var location: SourcePosition { storage.location }
    /// The YAML of the targeting rule, kept until the rule is compiled so problems can point
    /// at exact positions; dropped afterwards so a loaded set does not hold YAML trees.
    var targetingNode: YAMLNode? { storage.rules?.targetingNode }
    /// The targeting rule compiled against the definitions' evaluators, when it has one and it compiles.
    package var compiledTargeting: TargetingRule? { storage.rules?.compiledTargeting }
    /// Why the targeting rule could not be compiled; such a flag resolves with `PARSE_ERROR`.
    public var targetingProblem: String? { storage.rules?.targetingProblem }
    /// Why the flag cannot be served as its file configures it — a `defaultVariant` that names
    /// no variant, or a targeting rule that does not compile — as the message its evaluations
    /// carry; such a flag resolves with `PARSE_ERROR` (overrides still apply), and `ensign
    /// validate` reports the problem as an error. `nil` for a sound flag.
    public var configurationProblem: String? {
        if let problem = storage.rules?.defaultVariantProblem { return problem }
        return targetingProblem.map { "the targeting rule does not compile: \($0)" }
    }

    /// The fields, shared by every copy: a definition is copied into dictionaries, layouts
    /// and snapshots, and a reference costs 8 bytes where the fields cost hundreds.
    private(set) var storage: Storage

    final class Storage: Sendable {
        let key: String
        let kind: Kind
        let type: FlagType
        let defaultValue: LocatedValue?
        let isEnabled: Bool
        let environmentValues: [String: LocatedValue]
        let allowedValues: [JSONValue]?
        let minimum: Double?
        let maximum: Double?
        let summary: String?
        let owner: String?
        let expires: CalendarDay?
        let metadata: [String: JSONValue]
        let swiftType: String?
        let location: SourcePosition
        /// Variants and targeting, boxed: most flags have neither, and inline they would cost
        /// about 200 bytes per flag.
        let rules: Rules?

        init(
            key: String, kind: Kind, type: FlagType, defaultValue: LocatedValue?, isEnabled: Bool,
            environmentValues: [String: LocatedValue], allowedValues: [JSONValue]?, minimum: Double?,
            maximum: Double?, summary: String?, owner: String?, expires: CalendarDay?, metadata: [String: JSONValue],
            location: SourcePosition, swiftType: String?, rules: Rules?
        ) {
            self.key = key
            self.kind = kind
            self.type = type
            self.defaultValue = defaultValue
            self.isEnabled = isEnabled
            self.environmentValues = environmentValues
            self.allowedValues = allowedValues
            self.minimum = minimum
            self.maximum = maximum
            self.summary = summary
            self.owner = owner
            self.expires = expires
            self.metadata = metadata
            self.swiftType = swiftType
            self.location = location
            self.rules = rules
        }

        /// A copy with other rules.
        func replacingRules(_ rules: Rules?) -> Storage {
            Storage(
                key: key, kind: kind, type: type, defaultValue: defaultValue, isEnabled: isEnabled,
                environmentValues: environmentValues, allowedValues: allowedValues, minimum: minimum,
                maximum: maximum, summary: summary, owner: owner, expires: expires, metadata: metadata,
                location: location, swiftType: swiftType, rules: rules)
        }
    }

    init(
        key: String, kind: Kind, type: FlagType, defaultValue: LocatedValue?, variants: FlagVariants,
        defaultVariant: String?, isEnabled: Bool, targeting: LocatedValue?, targetingNode: YAMLNode?,
        environmentValues: [String: LocatedValue], allowedValues: [JSONValue]?, minimum: Double?, maximum: Double?,
        summary: String?, owner: String?, expires: CalendarDay?, metadata: [String: JSONValue],
        location: SourcePosition, swiftType: String? = nil, defaultVariantProblem: String? = nil
    ) {
        storage = Storage(
            key: key, kind: kind, type: type, defaultValue: defaultValue, isEnabled: isEnabled,
            environmentValues: environmentValues, allowedValues: allowedValues, minimum: minimum, maximum: maximum,
            summary: summary, owner: owner, expires: expires, metadata: metadata, location: location,
            swiftType: swiftType,
            rules: Rules.unlessEmpty(
                variants: variants, defaultVariant: defaultVariant, targeting: targeting, targetingNode: targetingNode,
                compiledTargeting: nil, targetingProblem: nil, defaultVariantProblem: defaultVariantProblem))
    }

    /// The same definition with its targeting compiled (or its problem recorded), and the
    /// targeting YAML released.
    func withCompiledTargeting(_ rule: TargetingRule?, problem: String?) -> FlagDefinition {
        var copy = self
        copy.storage = storage.replacingRules(
            Rules.unlessEmpty(
                variants: variants, defaultVariant: defaultVariant, targeting: targeting, targetingNode: nil,
                compiledTargeting: rule, targetingProblem: problem,
                defaultVariantProblem: storage.rules?.defaultVariantProblem))
        return copy
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
        return variants.names.sorted().first { variants[$0] == value }
    }

    /// The type and constraints values for this key must meet.
    package var rules: ValueRules {
        ValueRules(type: type, allowedValues: allowedValues, minimum: minimum, maximum: maximum)
    }

    /// The value converted to this key's type, or why it is not acceptable (wrong type, not
    /// in `enum`, out of bounds).
    package func check(_ value: JSONValue) -> Result<JSONValue, ValueProblem> {
        rules.check(value)
    }
}
