/// Evaluates flags offline, the way flagd does: from definitions (and optionally an
/// environment and deployment overlays) against an evaluation context given per call.
///
/// An ``AppContext`` resolves for one evaluation context at a time and refuses files with
/// errors; a `FlagEvaluator` evaluates any flag for any context (a server's per-request
/// evaluation, `ensign eval`, the conformance suites), and a flag whose own definition has a
/// problem resolves with an error code while the others work.
///
/// ```swift
/// let evaluator = FlagEvaluator(filesOf: context)
/// let details = evaluator.details(
///     forKeyNamed: "transfers.newFlow", default: false,
///     context: EvaluationContext(targetingKey: "user-42", attributes: ["country": "FR"]))
/// ```
package struct FlagEvaluator: Sendable {
    let baseInputs: ContextInputs
    /// Every key resolved once without an evaluation context: a flag without targeting is
    /// the same for every context, so evaluating it is a lookup.
    let staticSnapshot: ContextSnapshot

    /// Creates an evaluator over `definitions` (a context's ``AppContext/definitions``, say),
    /// for `environment`'s inline values.
    package init(definitions: DefinitionSet, environment: String = "") {
        self.init(definitions: definitions, environment: environment, environmentOverlay: nil, deploymentOverlays: [])
    }

    /// Creates an evaluator over a context's files as they are now: its definitions, its
    /// environment's overlay and its deployment files. Overrides, preferences, the fleet layer
    /// and the context's own evaluation context do not apply: they are not files.
    ///
    /// ```swift
    /// let evaluator = FlagEvaluator(filesOf: context)
    /// ```
    package init(filesOf context: AppContext) {
        let inputs = context.store.snapshot().inputs
        self.init(
            definitions: inputs.layout.definitions, environment: inputs.environment,
            environmentOverlay: inputs.environmentOverlay, deploymentOverlays: inputs.deploymentOverlays)
    }

    /// Creates an evaluator over `definitions` and overlays read by the package's loader.
    package init(
        definitions: DefinitionSet, environment: String, environmentOverlay: Overlay?, deploymentOverlays: [Overlay]
    ) {
        baseInputs = ContextInputs(
            layout: KeyLayout(definitions: definitions), environment: environment,
            environmentOverlay: environmentOverlay, deploymentOverlays: deploymentOverlays)
        staticSnapshot = ContextSnapshot.resolving(baseInputs, generation: 0)
    }

    /// Evaluates a key for `context`, reading the value as `Value`.
    package func details<Value: FlagValueConvertible>(
        forKeyNamed key: String, default defaultValue: Value, context: EvaluationContext = .empty
    ) -> ResolutionDetails<Value> {
        let (entry, definition) = resolve(key, context: context)
        return ResolutionDetails(key: key, entry: entry, definition: definition, defaultValue: defaultValue)
    }

    /// Evaluates a key for `context` without a Swift type: `value` is `null` when the
    /// caller's default applies (no flag value is ever `null`).
    package func details(forKeyNamed key: String, context: EvaluationContext = .empty) -> ResolutionDetails<JSONValue> {
        let (entry, definition) = resolve(key, context: context)
        return ResolutionDetails(key: key, entry: entry, definition: definition)
    }

    private func resolve(_ key: String, context: EvaluationContext) -> (ResolvedEntry, FlagDefinition?) {
        guard let slot = baseInputs.layout.slot(for: key) else { return (.notFound, nil) }
        let definition = baseInputs.layout.definitionBySlot[slot]
        guard definition.compiledTargeting != nil else { return (staticSnapshot.entry(at: slot), definition) }
        return (SnapshotResolver.resolve(slot: slot, inputs: baseInputs, evaluationContext: context), definition)
    }
}
