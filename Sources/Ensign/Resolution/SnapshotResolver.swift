/// Resolves one key through the layers, lowest first: definition default, environment,
/// deployment files, fleet, targeting, preference, override. (Code defaults live with the
/// typed keys, so "no value" here means "the code default"; scope overrides are applied by
/// child contexts on top of their parent's snapshot.)
enum SnapshotResolver {
    /// - Parameter evaluationContext: the context targeting reads, when not the inputs' own
    ///   (an evaluator resolving one flag for one request).
    static func resolve(slot: Int, inputs: ContextInputs, evaluationContext: EvaluationContext? = nil) -> ResolvedEntry
    {
        let definition = inputs.layout.definitionBySlot[slot]
        // A value set at run time that no longer fits its definition (a reload changed the
        // type or the bounds) is kept but not applied: the layers below decide.
        if let override = inputs.overrides[definition.key],
            let entry = attributed(
                override, layer: .override, reason: .override, definition: definition)
        {
            return entry
        }
        if definition.kind == .preference, let preference = inputs.preferences[definition.key],
            let entry = attributed(preference, layer: .preference, reason: .preference, definition: definition)
        {
            return entry
        }
        return resolveFromFiles(
            definition, inputs: inputs, evaluationContext: evaluationContext ?? inputs.evaluationContext)
    }

    /// Layers 1–5, the files and targeting, for a key no preference or override decides: what
    /// a child evaluates for its own evaluation context, where its parent's entry already
    /// shows that neither applies.
    static func resolveFromFiles(
        _ definition: FlagDefinition, inputs: ContextInputs, evaluationContext: EvaluationContext
    ) -> ResolvedEntry {
        guard definition.isEnabled else {
            return ResolvedEntry(
                value: nil, variant: nil, reason: .disabled, errorCode: nil, errorMessage: nil, source: .codeDefault)
        }
        if let problem = definition.servingProblem {
            return ResolvedEntry(
                value: nil, variant: nil, reason: .error, errorCode: .parseError, errorMessage: problem,
                source: .codeDefault)
        }
        guard let rule = definition.compiledTargeting else { return staticEntry(definition, inputs: inputs) }
        return targeted(definition, rule: rule, inputs: inputs, evaluationContext: evaluationContext)
    }

    /// Layers 2–4½: the last file value wins; `DEFAULT` with no value when none has one.
    static func staticEntry(_ definition: FlagDefinition, inputs: ContextInputs) -> ResolvedEntry {
        var winner: (value: LocatedValue, layer: ValueLayer)?
        if let value = definition.defaultValue { winner = (value, .definition) }
        if let value = definition.environmentValues[inputs.environment] { winner = (value, .environment) }
        if let value = inputs.environmentOverlay?.value(for: definition.key, kind: definition.kind) {
            winner = (value, .environment)
        }
        for overlay in inputs.deploymentOverlays {
            if let value = overlay.value(for: definition.key, kind: definition.kind) { winner = (value, .deployment) }
        }
        if let value = inputs.fleetOverlay?.value(for: definition.key, kind: definition.kind) {
            winner = (value, .fleet)
        }
        guard let winner else {
            if let problem = definition.missingDefaultVariant {
                // A defaultVariant naming no variant (an error `ensign validate` reports): flagd's
                // evaluators fail where an evaluation falls to it, and serve targeting's variants.
                return failure(problem, source: ValueSource(layer: .definition, location: definition.location))
            }
            return ResolvedEntry(
                value: nil, variant: nil, reason: .defaultValue, errorCode: nil, errorMessage: nil, source: .codeDefault
            )
        }
        return ResolvedEntry(
            value: winner.value.value, variant: definition.variantName(for: winner.value.value), reason: .staticValue,
            errorCode: nil, errorMessage: nil, source: ValueSource(layer: winner.layer, location: winner.value.location)
        )
    }

    private static func targeted(
        _ definition: FlagDefinition, rule: TargetingRule, inputs: ContextInputs, evaluationContext: EvaluationContext
    ) -> ResolvedEntry {
        let source = ValueSource(layer: .targeting, location: definition.targetingLocation)
        let result: JSONValue
        switch rule.result(context: evaluationContext, flagKey: definition.key) {
        case .success(let value):
            result = value
        case .failure(let error):
            // Where flagd's evaluator fails on the rule, it reports PARSE_ERROR. A part the
            // loader reported as an error (an unknown operator) is named with its position.
            let errors = definition.targetingProblem.map { "; the rule's errors: \($0)" } ?? ""
            return ResolvedEntry(
                value: nil, variant: nil, reason: .error, errorCode: .parseError,
                errorMessage: "the targeting rule failed: \(error.message)\(errors)", source: source)
        }
        if result.isNull {
            // The files' value, looked up only here: most evaluations return a variant.
            var entry = staticEntry(definition, inputs: inputs)
            if entry.errorCode == nil { entry.reason = .defaultValue }
            return entry
        }
        if !definition.variants.isEmpty {
            // flagd reads the result as JSON text without its quotes, and looks that name up exactly.
            guard let name = TargetingRule.variantName(for: result), let value = definition.variants[name] else {
                let named = TargetingRule.variantName(for: result).map { " (the name '\($0)')" } ?? ""
                return failure(
                    "targeting returned \(result.jsonText)\(named), which is not one of the variants", source: source)
            }
            return ResolvedEntry(
                value: value, variant: name, reason: .targetingMatch, errorCode: nil, errorMessage: nil,
                source: source)
        }
        switch definition.rules.check(result) {
        case .success(let value):
            return ResolvedEntry(
                value: value, variant: nil, reason: .targetingMatch, errorCode: nil, errorMessage: nil,
                source: source)
        case .failure(let problem):
            return failure("targeting returned a value that does not fit: \(problem)", source: source)
        }
    }

    private static func failure(_ message: String, source: ValueSource) -> ResolvedEntry {
        ResolvedEntry(
            value: nil, variant: nil, reason: .error, errorCode: .general, errorMessage: message, source: source)
    }

    /// The entry for a value set at run time, or `nil` when it does not fit the definition.
    private static func attributed(
        _ value: AttributedValue, layer: ValueLayer, reason: ResolutionReason, definition: FlagDefinition
    ) -> ResolvedEntry? {
        guard case .success(let checked) = definition.check(value.value) else { return nil }
        return ResolvedEntry(
            value: checked, variant: definition.variantName(for: checked), reason: reason, errorCode: nil,
            errorMessage: nil,
            source: ValueSource(layer: layer, location: value.location, actor: value.actor, time: value.time))
    }
}
