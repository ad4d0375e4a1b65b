extension AppContext {
    /// Registers `hook` to run around every read through this context: on a root, every read in
    /// the app (its children and scopes too); on a child, the reads through that child and its
    /// own children. A scope shares its context's hooks.
    ///
    /// Hooks of the root run first in `before` (and last in the other stages), then each
    /// child's down to the context read through. With no hook registered anywhere in the tree a
    /// read checks one flag and runs none of this.
    public func addHook(_ hook: some EvaluationHook) {
        store.hooks.withLock { $0.append(hook) }
        store.tree.hookSwitch.registered.add(1, ordering: .relaxed)
    }

    /// Removes the hooks registered on this context (not its parent's, nor its children's).
    public func removeAllHooks() {
        let removed = store.hooks.withLock { hooks in
            defer { hooks = [] }
            return hooks.count
        }
        store.tree.hookSwitch.registered.subtract(removed, ordering: .relaxed)
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
        let name = fullName(key.name)
        var run = HookRun(
            hooks: registeredHooks() + hooks, hints: hints,
            context: hookContext(key: name, type: Value.flagType, defaultValue: key.defaultValue.flagValue))
        return run.evaluate(defaultValue: key.defaultValue) { merged in
            resolvedDetails(for: key, evaluatedFor: merged)
        }
    }

    /// ``details(forKeyNamed:)`` through the registered hooks: the type is the definition's,
    /// and the default `null`.
    func untypedDetailsThroughHooks(forKeyNamed name: String) -> ResolutionDetails<JSONValue> {
        let key = fullName(name)
        let type = store.snapshot().definition(forKeyNamed: key)?.type ?? .object
        var run = HookRun(
            hooks: registeredHooks(), hints: [:], context: hookContext(key: key, type: type, defaultValue: .null))
        return run.evaluate(defaultValue: JSONValue.null) { merged in
            untypedDetails(forKeyNamed: name, evaluatedFor: merged)
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

    private func hookContext(key: String, type: FlagType, defaultValue: JSONValue) -> HookContext {
        HookContext(
            flagKey: key, valueType: type, defaultValue: defaultValue, evaluationContext: evaluationContext,
            clientName: label)
    }
}
