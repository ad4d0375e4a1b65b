import EnsignYAML

extension FlagDefinition {
    /// A flag's variants and targeting (flagd's long form, or a compact flag with `targeting`).
    final class Rules: Sendable {
        let variants: FlagVariants
        let defaultVariant: String?
        let targeting: LocatedValue?
        let targetingNode: YAMLNode?
        let compiledTargeting: TargetingRule?
        let targetingProblem: String?
        /// Why `defaultVariant` cannot be served (it names no variant), with its position.
        let defaultVariantProblem: String?

        init(
            variants: FlagVariants, defaultVariant: String?, targeting: LocatedValue?, targetingNode: YAMLNode?,
            compiledTargeting: TargetingRule?, targetingProblem: String?, defaultVariantProblem: String?
        ) {
            self.variants = variants
            self.defaultVariant = defaultVariant
            self.targeting = targeting
            self.targetingNode = targetingNode
            self.compiledTargeting = compiledTargeting
            self.targetingProblem = targetingProblem
            self.defaultVariantProblem = defaultVariantProblem
        }

        /// Rules with these parts, or `nil` when there are none.
        static func unlessEmpty(
            variants: FlagVariants, defaultVariant: String?, targeting: LocatedValue?, targetingNode: YAMLNode?,
            compiledTargeting: TargetingRule?, targetingProblem: String?, defaultVariantProblem: String?
        ) -> Rules? {
            guard
                !variants.isEmpty || defaultVariant != nil || targeting != nil || targetingNode != nil
                    || compiledTargeting != nil || targetingProblem != nil || defaultVariantProblem != nil
            else { return nil }
            return Rules(
                variants: variants, defaultVariant: defaultVariant, targeting: targeting, targetingNode: targetingNode,
                compiledTargeting: compiledTargeting, targetingProblem: targetingProblem,
                defaultVariantProblem: defaultVariantProblem)
        }
    }
}
