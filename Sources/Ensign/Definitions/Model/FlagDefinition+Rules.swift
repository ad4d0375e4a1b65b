import EnsignYAML

extension FlagDefinition {
    /// A flag's variants and targeting (flagd's long form, or a compact flag with `targeting`).
    final class Rules: Sendable {
        let variants: FlagVariants
        let defaultVariant: String?
        /// Where the targeting rule is written.
        let targetingPosition: CompactSourcePosition
        /// Whether the flag has a targeting rule.
        let hasTargeting: Bool
        /// The targeting rule's YAML until it is compiled, then the compiled rule.
        let targeting: TargetingHandoff
        /// Why `defaultVariant` cannot be served (it names no variant), with its position.
        let defaultVariantProblem: String?

        init(
            variants: FlagVariants, defaultVariant: String?, targetingNode: YAMLNode?, defaultVariantProblem: String?
        ) {
            self.variants = variants
            self.defaultVariant = defaultVariant
            self.targetingPosition = targetingNode?.compactPosition ?? .none
            self.hasTargeting = targetingNode != nil
            self.targeting = TargetingHandoff(targetingNode)
            self.defaultVariantProblem = defaultVariantProblem
        }

        /// Rules with these parts, or `nil` when there are none.
        static func unlessEmpty(
            variants: FlagVariants, defaultVariant: String?, targetingNode: YAMLNode?, defaultVariantProblem: String?
        ) -> Rules? {
            guard !variants.isEmpty || defaultVariant != nil || targetingNode != nil || defaultVariantProblem != nil
            else { return nil }
            return Rules(
                variants: variants, defaultVariant: defaultVariant, targetingNode: targetingNode,
                defaultVariantProblem: defaultVariantProblem)
        }
    }

    /// A targeting rule as written: the value itself, or its compact JSON text, read back on
    /// demand, for a rule whose text reads back exactly.
    enum WrittenRule: Sendable {
        case value(JSONValue)
        case text(String)

        /// The compact text of `rule` when it reads back as the same value: not when it holds
        /// a double JSON cannot write as it is (an infinity, NaN or `-0.0`).
        init(compacting rule: RuleTree) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(256)
            guard rule.appendExactJSON(to: &bytes) else {
                self = .value(rule.value)
                return
            }
            self = .text(String(decoding: bytes, as: UTF8.self))
        }

        /// The rule.
        var value: JSONValue {
            switch self {
            case .value(let value):
                return value
            case .text(let text):
                // The text was written from a value by `appendJSON`, so it parses; `.null` is unreachable.
                let node = try? YAMLParser().documents(fromJSON: Array(text.utf8), file: "").first
                return node.map(JSONValue.init) ?? .null
            }
        }
    }
}
