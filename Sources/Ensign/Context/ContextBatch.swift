/// Several writes applied as one transaction: one new snapshot, one notification round, one
/// change-log entry. Built inside ``AppContext/batch(label:actor:_:)``.
///
/// Each write is checked when it is added; if the closure throws, nothing is applied. The
/// writes take effect in the order they were added, as if made one after another: removing
/// an override and then setting it again removes its persisted value too.
public struct ContextBatch: Sendable {
    let context: AppContext
    let actor: String
    /// Override writes in the order they were added (`nil`: a removal).
    var overrides: [(key: String, value: AttributedValue?)] = []
    var preferences: [String: AttributedValue?] = [:]
    var evaluationContext: EvaluationContext?

    init(context: AppContext, actor: String) {
        self.context = context
        self.actor = actor
    }

    /// Adds an override of a flag (a scope override in a child context).
    ///
    /// A batch takes flag keys only here, as it always has; a preference's override is set
    /// with ``AppContext/setOverride(_:to:actor:persist:)``, or here by name.
    public mutating func setOverride<Value>(_ key: FlagKey<Value>, to value: Value) throws(ContextWriteError) {
        try setOverride(keyNamed: key.name, to: value.flagValue)
    }

    /// Adds an override of a key given by name.
    public mutating func setOverride(keyNamed name: String, to value: JSONValue) throws(ContextWriteError) {
        let key = context.fullName(name)
        overrides.append((key, AttributedValue(try context.checkedValue(value, forKeyNamed: key), actor: actor)))
    }

    /// Removes a flag's override.
    public mutating func removeOverride<Value>(_ key: FlagKey<Value>) {
        overrides.append((context.fullName(key.name), nil))
    }

    /// Sets a preference.
    public mutating func setPreference<Value>(
        _ key: UserPreferenceKey<Value>, to value: Value
    ) throws(ContextWriteError) {
        let name = context.fullName(key.name)
        let checked = try context.checkedValue(value.flagValue, forKeyNamed: name)
        guard context.definitions[name]?.kind == .preference else { throw .notAPreference(name) }
        preferences[name] = AttributedValue(checked, actor: actor)
    }

    /// Replaces the evaluation context (in a child context: the child's own, see
    /// ``AppContext/setEvaluationContext(_:)``).
    public mutating func setEvaluationContext(_ evaluationContext: EvaluationContext) {
        self.evaluationContext = evaluationContext
    }
}

extension AppContext {
    /// Applies several writes as one transaction and one notification round.
    ///
    /// ```swift
    /// try context.batch(label: "enable new list") { batch in
    ///     try batch.setOverride(.showPendingList, to: true)
    ///     try batch.setOverride(.pageSize, to: 50)
    /// }
    /// ```
    ///
    /// In a child context, overrides are the child's scope overrides and the evaluation
    /// context is the child's own: they form one transaction in the child; preferences go to
    /// the root as another.
    public func batch(
        label: String = "batch", actor: String = "code", _ build: (inout ContextBatch) throws -> Void
    ) rethrows {
        var batch = ContextBatch(context: self, actor: actor)
        try build(&batch)
        let cause = ChangeCause.batch(label)
        let overrides = batch.overrides
        if store.parent != nil {
            if !overrides.isEmpty || batch.evaluationContext != nil {
                store.commitChildLayers(cause: cause) { layers, layout in
                    for (key, value) in overrides { layers.overrides[key] = value }
                    guard let evaluationContext = batch.evaluationContext else { return overrides.map(\.key) }
                    layers.evaluationContext = evaluationContext
                    return overrides.map(\.key) + layout.targetedKeys
                }
            }
            guard !batch.preferences.isEmpty else { return }
            commitAtRoot(batch, cause: cause, keys: Array(batch.preferences.keys), overrides: [])
        } else {
            var keys = Array(batch.preferences.keys) + overrides.map(\.key)
            if batch.evaluationContext != nil { keys += store.snapshot().layout.targetedKeys }
            // An evaluation context is written even when no key is targeted now: definitions
            // loaded later evaluate their rules against it.
            guard !keys.isEmpty || batch.evaluationContext != nil else { return }
            commitAtRoot(batch, cause: cause, keys: keys, overrides: overrides)
        }
    }

    /// Commits a batch's preferences, its root overrides and (at the root) its evaluation context.
    private func commitAtRoot(
        _ batch: ContextBatch, cause: ChangeCause, keys: [String], overrides: [(key: String, value: AttributedValue?)]
    ) {
        let isChild = store.parent != nil
        let (overridesFile, preferencesFile) = (rootStore.overridesFile, rootStore.preferencesFile)
        rootStore.commit(cause: cause, affecting: .some(keys)) { state in
            for (key, value) in overrides {
                state.writeOverride(key, value, section: section(of: key), file: overridesFile)
            }
            for (key, value) in batch.preferences {
                var value = value
                value?.isPersisted = preferencesFile != nil
                state.writePreference(key, value, file: preferencesFile)
            }
            if !isChild, let evaluationContext = batch.evaluationContext {
                state.inputs.evaluationContext = evaluationContext
            }
        }
    }
}
