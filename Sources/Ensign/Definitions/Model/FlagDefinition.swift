import EnsignYAML

/// One flag or preference as declared in a definitions file: its type, default, constraints,
/// per-environment values, variants and targeting, and where each came from.
///
/// Definitions are immutable values produced by the loader. Both forms of the file
/// format produce the same model: the compact form (`type`, `default`) and flagd's long form
/// (`state`, `variants`, `defaultVariant`, `targeting`).
package struct FlagDefinition: Sendable {
    /// Whether a key is a flag (set by developers and operators) or a user preference.
    package enum Kind: String, Sendable, Hashable {
        /// Declared under `flags:`.
        case flag
        /// Declared under `preferences:`; the user's own value wins over files.
        case preference
    }

    /// The full key, namespace included: `beneficiaries.showPendingList`.
    package var key: String { storage.key }
    /// Flag or preference.
    package var kind: Kind { storage.kind }
    /// The value type.
    package var type: FlagType { storage.type }
    /// The definition's default (layer 2 of the resolution order), or `nil` when a flagd
    /// flag has no `defaultVariant` and the code default applies.
    package var defaultValue: LocatedValue? {
        storage.defaultValue.map { LocatedValue($0, at: storage.defaultPosition.sourcePosition) }
    }
    /// Named values (flagd variants), matched by exact name; empty for compact flags without `variants:`.
    package var variants: FlagVariants { storage.rules?.variants ?? .none }
    /// The variant the default comes from, for flags with variants.
    package var defaultVariant: String? { storage.rules?.defaultVariant }
    /// Whether the flag is enabled (`state: DISABLED` makes every read return the code default).
    package var isEnabled: Bool { storage.isEnabled }
    /// The targeting rule as written, when there is one.
    ///
    /// Once compiled, the rule is kept as its JSON text and read back here on each call: use
    /// ``targetingLocation`` for its position alone.
    package var targeting: LocatedValue? {
        guard let rules = storage.rules, let written = rules.targeting.compiled?.written else { return nil }
        return LocatedValue(written.value, at: rules.targetingPosition.sourcePosition)
    }
    /// Where the targeting rule is written, when there is one.
    package var targetingLocation: SourcePosition? {
        guard let rules = storage.rules, rules.hasTargeting else { return nil }
        return rules.targetingPosition.sourcePosition
    }
    /// Values given inline under `environments:`, by environment name.
    package var environmentValues: EnvironmentValues { storage.environmentValues }
    /// Allowed values, from `enum:`.
    package var allowedValues: [JSONValue]? { storage.constraints?.allowedValues }
    /// Inclusive lower bound, from `minimum:`.
    package var minimum: Double? { storage.constraints?.minimum }
    /// Inclusive upper bound, from `maximum:`.
    package var maximum: Double? { storage.constraints?.maximum }
    /// What the flag does, from `description:`.
    package var summary: String? { storage.summary }
    /// Who owns it, from `owner:`.
    package var owner: String? { storage.owner }
    /// When it should be removed, from `expires:` (a `YYYY-MM-DD` day).
    package var expires: CalendarDay? { storage.constraints?.expires }
    /// Flag metadata with the file's flag-set metadata merged underneath.
    package var metadata: [String: JSONValue] { storage.metadata }
    /// The flag set the flag belongs to: `flagSetId` in its metadata (its own, or its file's),
    /// as flagd groups flags; `nil` when it names none.
    package var flagSetID: String? { storage.metadata[Self.flagSetMetadataKey]?.stringValue }
    /// The metadata key that names a flag's set, as flagd names it.
    package static let flagSetMetadataKey = "flagSetId"
    /// The Swift type `ensign generate` declares the key with, from `swiftType:` (for example
    /// `Banner` or `Wallet.Banner`); `nil` for the type's usual Swift type.
    package var swiftType: String? { storage.constraints?.swiftType }
    /// Whether `secret: true` marks the value as one that telemetry never exports (a token,
    /// an internal URL): hooks see it as ``HookContext/isSecret``.
    package var isSecret: Bool { storage.isSecret }
    /// Where the key is declared.
    package var location: SourcePosition { storage.position.sourcePosition }
    /// The targeting rule compiled against the definitions' evaluators, when it has one and it
    /// compiles; kept ``TargetingRule/withoutFindings`` (the loader has reported its warnings and
    /// checked its possible results).
    package var compiledTargeting: TargetingRule? { storage.rules?.targeting.compiledRule }
    /// The errors in the targeting rule, with their positions. When the rule did not compile at
    /// all (it nests too deep) the flag resolves with
    /// `PARSE_ERROR`; otherwise the parts named (an unknown operator, a `$ref` to no evaluator)
    /// fail with `PARSE_ERROR` only where an evaluation reaches them, as in flagd.
    package var targetingProblem: String? { storage.rules?.targeting.compiled?.problem }

    /// Why the flag cannot be served at all — a `defaultVariant` that is not a string, a rule
    /// that does not compile — as the message its evaluations carry with `PARSE_ERROR`
    /// (overrides still apply). `nil` for a flag that evaluates.
    package var servingProblem: String? {
        if defaultVariant == nil, let problem = storage.rules?.defaultVariantProblem { return problem }
        guard compiledTargeting == nil, let problem = targetingProblem else { return nil }
        return "the targeting rule does not compile: \(problem)"
    }

    /// Why the `defaultVariant` has no value — it names no variant — with its position; `nil`
    /// when it has one or there is none.
    package var missingDefaultVariant: String? {
        guard defaultVariant != nil, storage.defaultValue == nil else { return nil }
        return storage.rules?.defaultVariantProblem
    }

    /// What is wrong with how the file configures the flag, as `ensign validate` reports it
    /// with an error; `nil` for a sound flag. A running context still serves such a flag as
    /// flagd's evaluators do (see the File format article's "Load errors and run-time
    /// results"): a `defaultVariant` that names no variant fails with `GENERAL` only where an
    /// evaluation falls to the default, and an unknown operator with `PARSE_ERROR` only where
    /// one reaches it; a `defaultVariant` that is not a string, or a rule that does not compile,
    /// fails every evaluation with `PARSE_ERROR`.
    package var configurationProblem: String? {
        if let problem = servingProblem { return problem }
        var problems: [String] = []
        if let problem = missingDefaultVariant {
            problems.append("\(problem) (evaluations that fall to it read GENERAL)")
        }
        if let problem = targetingProblem {
            problems.append("its targeting rule fails with PARSE_ERROR where an evaluation reaches \(problem)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The fields, shared by every copy: a definition is copied into dictionaries, layouts
    /// and snapshots, and a reference costs 8 bytes where the fields cost over a hundred.
    private(set) var storage: Storage

    /// A definition's fields, laid out for a set of thousands: positions as 12-byte
    /// ``CompactSourcePosition``s (the parser's lines and columns always fit), and the fields
    /// most flags leave out (constraints, `expires`, `swiftType`; variants and targeting) in
    /// boxes of their own, 136 bytes in all where the plain fields took 290.
    ///
    /// The fields are declared widest first, so that no padding falls between them, and the
    /// default's position shares the key's file number: 136 bytes fit the allocator's 144-byte
    /// blocks, where 144 took 160 (16 bytes a flag, 160 KB for 10,000).
    final class Storage: Sendable {
        let key: String
        let summary: String?
        let owner: String?
        let environmentValues: EnvironmentValues
        let metadata: [String: JSONValue]
        /// `enum:`, `minimum:`, `maximum:`, `expires:` and `swiftType:`, when any is given.
        let constraints: Constraints?
        /// Variants and targeting, boxed: most flags have neither, and inline they would cost
        /// about 200 bytes per flag.
        let rules: Rules?
        let defaultValue: JSONValue?
        let kind: Kind
        let type: FlagType
        let isEnabled: Bool
        /// In the padding before `position`: the layout stays 136 bytes.
        let isSecret: Bool
        let position: CompactSourcePosition
        /// The default's line and column, in the key's file (a definition is in one file).
        private let defaultLine: UInt32
        private let defaultColumn: UInt32

        /// Where the default is written; meaningful when there is a default.
        var defaultPosition: CompactSourcePosition {
            CompactSourcePosition(file: position.file, line: Int(defaultLine), column: Int(defaultColumn))
        }

        init(
            key: String, kind: Kind, type: FlagType, defaultValue: LocatedValue?, isEnabled: Bool, isSecret: Bool,
            environmentValues: EnvironmentValues, constraints: Constraints?, summary: String?, owner: String?,
            metadata: [String: JSONValue], position: CompactSourcePosition, rules: Rules?
        ) {
            self.key = key
            self.kind = kind
            self.type = type
            self.defaultValue = defaultValue?.value
            let defaultPosition = defaultValue?.position ?? position
            assert(defaultPosition.file == position.file, "a definition's default is in another file than its key")
            (defaultLine, defaultColumn) = (defaultPosition.line, defaultPosition.column)
            self.isEnabled = isEnabled
            self.isSecret = isSecret
            self.environmentValues = environmentValues
            self.constraints = constraints
            self.summary = summary
            self.owner = owner
            self.metadata = metadata
            self.position = position
            self.rules = rules
        }

    }

    /// The fields few flags give, out of line.
    final class Constraints: Sendable {
        let allowedValues: [JSONValue]?
        let minimum: Double?
        let maximum: Double?
        let expires: CalendarDay?
        let swiftType: String?

        init(allowedValues: [JSONValue]?, minimum: Double?, maximum: Double?, expires: CalendarDay?, swiftType: String?)
        {
            self.allowedValues = allowedValues
            self.minimum = minimum
            self.maximum = maximum
            self.expires = expires
            self.swiftType = swiftType
        }

        /// Constraints with these parts, or `nil` when there are none.
        static func unlessEmpty(
            allowedValues: [JSONValue]?, minimum: Double?, maximum: Double?, expires: CalendarDay?, swiftType: String?
        ) -> Constraints? {
            guard allowedValues != nil || minimum != nil || maximum != nil || expires != nil || swiftType != nil else {
                return nil
            }
            return Constraints(
                allowedValues: allowedValues, minimum: minimum, maximum: maximum, expires: expires, swiftType: swiftType
            )
        }
    }

    init(
        key: String, kind: Kind, type: FlagType, defaultValue: LocatedValue?, variants: FlagVariants,
        defaultVariant: String?, isEnabled: Bool, targetingNode: YAMLNode?,
        environmentValues: [String: LocatedValue], allowedValues: [JSONValue]?, minimum: Double?, maximum: Double?,
        summary: String?, owner: String?, expires: CalendarDay?, metadata: [String: JSONValue],
        position: CompactSourcePosition, swiftType: String? = nil, defaultVariantProblem: String? = nil,
        isSecret: Bool = false
    ) {
        storage = Storage(
            key: key, kind: kind, type: type, defaultValue: defaultValue, isEnabled: isEnabled, isSecret: isSecret,
            environmentValues: EnvironmentValues(environmentValues),
            constraints: Constraints.unlessEmpty(
                allowedValues: allowedValues, minimum: minimum, maximum: maximum, expires: expires, swiftType: swiftType
            ),
            summary: summary, owner: owner, metadata: metadata, position: position,
            rules: Rules.unlessEmpty(
                variants: variants, defaultVariant: defaultVariant, targetingNode: targetingNode,
                defaultVariantProblem: defaultVariantProblem))
    }

    /// The targeting rule's YAML, for the one compiler that compiles it (problems point at
    /// exact positions in it); `nil` once claimed, or without a rule. See ``TargetingHandoff``.
    func claimTargetingTree() -> YAMLNode? { storage.rules?.targeting.claim() }

    /// Records what compiling the targeting rule gave; only the first record stands.
    func publishTargeting(_ compiled: CompiledTargeting) { storage.rules?.targeting.publish(compiled) }

    /// What compiling the targeting rule gave, once it has been compiled.
    var targetingCompilation: CompiledTargeting? { storage.rules?.targeting.compiled }

    /// Whether the flag has a targeting rule, compiled or not.
    var hasTargeting: Bool { storage.rules?.hasTargeting ?? false }

    /// Whether the targeting rule refers to a shared evaluator (`$ref`).
    var targetingUsesEvaluator: Bool { storage.rules?.targeting.usesEvaluator ?? false }
}

extension FlagDefinition {
    /// A definition made in code from a value (for contexts built from plain values).
    init(inMemoryKey key: String, type: FlagType, default value: JSONValue) {
        self.init(
            key: key, kind: .flag, type: type, defaultValue: LocatedValue(value, at: .unknown("<values>")),
            variants: [:], defaultVariant: nil, isEnabled: true, targetingNode: nil,
            environmentValues: [:], allowedValues: nil, minimum: nil, maximum: nil, summary: nil, owner: nil,
            expires: nil, metadata: [:], position: CompactSourcePosition(.unknown("<values>")))
    }

    /// The name of the variant whose value is `value`, if the flag has one.
    package func variantName(for value: JSONValue) -> String? {
        if let defaultVariant, variants[defaultVariant] == value { return defaultVariant }
        return variants.names.sorted().first { variants[$0] == value }
    }

    /// The type and constraints values for this key must meet.
    package var rules: ValueRules {
        ValueRules(type: type, allowedValues: allowedValues, minimum: minimum, maximum: maximum)
    }

    /// The value converted to this key's type, or why it is not acceptable (wrong type, not
    /// in `enum`, out of bounds).
    package func check(_ value: JSONValue) -> Result<JSONValue, ContextWriteError.ValueProblem> {
        rules.check(value)
    }
}
