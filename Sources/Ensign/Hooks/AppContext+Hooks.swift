extension AppContext {
    /// Registers `hook` to run around every read through this context: on a root, every read in
    /// the app (its children and scopes too); on a child, the reads through that child and its
    /// own children. A scope shares its context's hooks.
    ///
    /// Hooks of the root run first in `before` (and last in the other stages), then each
    /// child's down to the context read through. With no hook registered anywhere in the tree a
    /// read checks one flag and runs none of this.
    public func addHook(_ hook: some EvaluationHook) {
        // The count changes under the same lock as the list, so the two always agree.
        if hook.runsForExposuresOnly {
            store.tree.exposures.prepare(slotCount: store.withSnapshot { $0.layout.count })
        }
        store.hooks.withLock { hooks in
            hooks.append(hook)
            store.tree.hookSwitch.count([hook], sign: 1)
        }
    }

    /// Removes the hooks registered on this context (not its parent's, nor its children's).
    /// Counting (``countEvaluations()``) stays on.
    public func removeAllHooks() {
        store.hooks.withLock { hooks in
            let kept = hooks.filter { $0 is EvaluationCountingHook }
            store.tree.hookSwitch.count(hooks.filter { !($0 is EvaluationCountingHook) }, sign: -1)
            hooks = kept
        }
    }

    /// The details of a key's value, evaluated with `hooks` run for this call after the
    /// context's own (OpenFeature's invocation level), each given `hints`.
    ///
    /// ```swift
    /// let details = context.details(for: .pageSize, hooks: [AuditHook()], hints: ["screen": "list"])
    /// ```
    public func details<Value, Kind>(
        for key: ContextKey<Value, Kind>, hooks: [any EvaluationHook], hints: [String: JSONValue] = [:]
    ) -> ResolutionDetails<Value> {
        // One snapshot for the hooks' context and the evaluation, so that both see one state.
        let snapshot = store.snapshot()
        // No new array for the common call without hooks of its own.
        let hooks = hooks.isEmpty ? registeredHooks() : registeredHooks() + hooks
        // A hook elsewhere in the tree turns the switch on; this path may still have none.
        guard !hooks.isEmpty else { return resolvedDetails(for: key, in: snapshot, evaluatedFor: nil) }
        if let counter = Self.onlyCounter(in: hooks) {
            return counter.counted(resolvedDetails(for: key, in: snapshot, evaluatedFor: nil))
        }
        var run = HookRun(
            hooks: hooks, hints: hints,
            context: hookContext(
                key: fullName(key.name), type: Value.flagType, defaultValue: key.defaultValue.flagValue, in: snapshot))
        return run.evaluate(
            defaultValue: key.defaultValue,
            resolve: { merged in resolvedDetails(for: key, in: snapshot, evaluatedFor: merged) },
            isExposure: { details, context in
                recordExposure(of: details, for: context, in: snapshot, identity: key.identity)
            })
    }

    /// For a typed read while hooks are registered (the subscripts' slow path): when every hook
    /// is an exposure hook and this snapshot's result for the key is already exposed, the
    /// value, with no hook run (`.some(nil)`: the code default); `.none` otherwise. The check
    /// is one atomic load beside a read without hooks, and not generic, so that it costs no
    /// type metadata at run time.
    @usableFromInline
    func alreadyExposedValue(_ identity: KeyIdentity) -> JSONValue?? {
        // Every hooked subscript read passes here, and the hooked details path does not warn:
        // the one place a read of `unconfigured` with hooks registered is reported.
        if store.settings.isUnconfigured { Self.warnUnconfiguredRead(of: identity.name) }
        guard hookSwitch.hasOnlyExposureHooks else { return .none }
        let exposures = store.tree.exposures
        // Through a prefix scope, the key's prefixed twin.
        let identity = scopedKeys.map { $0.identity(for: identity) } ?? identity
        let value: JSONValue?? = store.withSnapshot { snapshot in
            guard snapshot.givesRootValues, let slot = identity.slot(in: snapshot.layout),
                exposures.isConfirmed(slot: slot, generation: snapshot.generation)
            else { return .none }
            return .some(snapshot.rootValue(at: slot))
        }
        if value != nil { store.trackAccess(self, keyPath: identity.observationKeyPath) }
        return value
    }

    /// Records the result `details` as an exposure for `context`; returns whether it is new.
    /// A result from a snapshot that gives the root's values, evaluated for its own context,
    /// also confirms the key's slot, so the next read of it in that snapshot skips the set.
    private func recordExposure<Value>(
        of details: ResolutionDetails<Value>, for context: EvaluationContext, in snapshot: ContextSnapshot,
        identity: KeyIdentity?
    ) -> Bool {
        let exposure = ExposureLog.Exposure(
            key: details.key, variant: details.variant, value: details.value.flagValue,
            targetingKey: context.targetingKey)
        var slot: Int?
        if let identity, snapshot.givesRootValues, store.tree.hookSwitch.hasOnlyExposureHooks,
            context == snapshot.evaluationContext
        {
            slot = resolvedIdentity(identity).slot(in: snapshot.layout)
        }
        return store.tree.exposures.record(exposure, slot: slot, generation: snapshot.generation)
    }

    /// ``details(forKeyNamed:)`` through the registered hooks: the type is the definition's,
    /// and the default `null`.
    func untypedDetailsThroughHooks(forKeyNamed name: String) -> ResolutionDetails<JSONValue> {
        let snapshot = store.snapshot()
        let hooks = registeredHooks()
        guard !hooks.isEmpty else { return untypedDetails(forKeyNamed: name, in: snapshot, evaluatedFor: nil) }
        if let counter = Self.onlyCounter(in: hooks) {
            return counter.counted(untypedDetails(forKeyNamed: name, in: snapshot, evaluatedFor: nil))
        }
        let key = fullName(name)
        let type = snapshot.definition(forKeyNamed: key)?.type ?? .object
        var run = HookRun(
            hooks: hooks, hints: [:], context: hookContext(key: key, type: type, defaultValue: .null, in: snapshot))
        return run.evaluate(
            defaultValue: JSONValue.null,
            resolve: { merged in untypedDetails(forKeyNamed: name, in: snapshot, evaluatedFor: merged) },
            isExposure: { details, context in
                recordExposure(of: details, for: context, in: snapshot, identity: nil)
            })
    }

    /// The hooks of this context's store and its ancestors, the root's first.
    func registeredHooks() -> [any EvaluationHook] {
        // A root's list as it is: no arrays made for the common case.
        guard let parent = store.parent else { return store.hooks.withLock { $0 } }
        if parent.parent == nil, store.hooks.withLock(\.isEmpty) { return parent.hooks.withLock { $0 } }
        var levels: [[any EvaluationHook]] = []
        var node: ContextStore? = store
        while let current = node {
            levels.append(current.hooks.withLock { $0 })
            node = current.parent
        }
        return levels.reversed().flatMap { $0 }
    }

    private func hookContext(
        key: String, type: FlagType, defaultValue: JSONValue, in snapshot: ContextSnapshot
    ) -> HookContext {
        HookContext(
            flagKey: key, valueType: type, defaultValue: defaultValue, evaluationContext: snapshot.evaluationContext,
            clientName: label, isSecret: snapshot.definition(forKeyNamed: key)?.isSecret ?? false)
    }
}
