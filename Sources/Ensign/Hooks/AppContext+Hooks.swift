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
        store.hooks.withLock { hooks in
            hooks.append(hook)
            store.tree.hookSwitch.registered.add(1, ordering: .relaxed)
        }
    }

    /// Removes the hooks registered on this context (not its parent's, nor its children's).
    /// Counting (``countEvaluations()``) stays on.
    public func removeAllHooks() {
        store.hooks.withLock { hooks in
            let kept = hooks.filter { $0 is EvaluationCountingHook }
            store.tree.hookSwitch.registered.subtract(hooks.count - kept.count, ordering: .relaxed)
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
        let hooks = registeredHooks() + hooks
        // A hook elsewhere in the tree turns the switch on; this path may still have none.
        guard !hooks.isEmpty else { return resolvedDetails(for: key, in: snapshot, evaluatedFor: nil) }
        if let counter = Self.onlyCounter(in: hooks) {
            return counter.counted(resolvedDetails(for: key, in: snapshot, evaluatedFor: nil))
        }
        var run = HookRun(
            hooks: hooks, hints: hints,
            context: hookContext(
                key: fullName(key.name), type: Value.flagType, defaultValue: key.defaultValue.flagValue, in: snapshot))
        return run.evaluate(defaultValue: key.defaultValue) { merged in
            resolvedDetails(for: key, in: snapshot, evaluatedFor: merged)
        }
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
        return run.evaluate(defaultValue: JSONValue.null) { merged in
            untypedDetails(forKeyNamed: name, in: snapshot, evaluatedFor: merged)
        }
    }

    /// The hooks of this context's store and its ancestors, the root's first.
    private func registeredHooks() -> [any EvaluationHook] {
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
            clientName: label)
    }
}
