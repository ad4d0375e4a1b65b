import EnsignSupport

extension AppContext {
    /// Overrides a flag's or preference's value at run time (layer 7, over the user's own
    /// choice too; in a child context, a scope override).
    ///
    /// The value is checked against the key's definition first; a refused write changes
    /// nothing. Overrides show as `OVERRIDE` in `details(for:)`, with `actor` and the time.
    ///
    /// ```swift
    /// try context.setOverride(.showPendingList, to: true)
    /// ```
    ///
    /// - Parameters:
    ///   - key: the flag or preference to override.
    ///   - value: its new value.
    ///   - actor: who sets it, for provenance and the change log (`code`, `menu`, …).
    ///   - persist: also save the override to the overrides file, so it is applied again at
    ///     the next start (a debug-menu choice that survives restarts). The call returns once
    ///     the file on disk holds it (writers at the same moment share one disk write).
    /// - Throws: ``ContextWriteError`` when the value is refused (nothing changes), or
    ///   ``ContextWriteError/notPersisted(key:path:reason:)`` when it is in force but saving failed.
    public func setOverride<Value, Kind>(
        _ key: ContextKey<Value, Kind>, to value: Value, actor: String = "code", persist: Bool = false
    ) throws(ContextWriteError) {
        try setOverride(keyNamed: key.name, to: value.flagValue, actor: actor, persist: persist)
    }

    /// Overrides a key given by name (relative to this context's scope) with an untyped value.
    ///
    /// The latest write to a key wins: a plain override set after a persisted one wins for
    /// this run, and the overrides file keeps the persisted value for the next start.
    public func setOverride(
        keyNamed name: String, to value: JSONValue, actor: String = "code", persist: Bool = false
    ) throws(ContextWriteError) {
        let key = fullName(name)
        let checked = try checkedValue(value, forKeyNamed: key)
        let attributed = AttributedValue(checked, actor: actor, isPersisted: persist)
        if store.parent != nil {
            guard !persist else { throw .persistenceUnavailable(key: key) }
            store.commitScopeOverrides(cause: .scope(store.label), keys: [key]) { $0[key] = attributed }
        } else {
            guard !persist || store.overridesFile != nil else { throw .persistenceUnavailable(key: key) }
            let (section, file) = (section(of: key), store.overridesFile)
            store.commit(cause: .override(actor: actor), affecting: .some([key])) { state in
                state.writeOverride(key, attributed, section: section, file: file)
            }
            if persist, let file { try save(file, key: key) }
        }
    }

    /// Returns once `file` holds `key`'s write (a persisted write is acknowledged only once it
    /// is on disk), or throws when saving failed.
    func save(_ file: PersistentOverlayFile, key: String) throws(ContextWriteError) {
        do {
            try file.flush()
        } catch {
            throw .notPersisted(key: key, path: file.path, reason: error.message)
        }
    }

    /// Removes a flag's or preference's override, if it has one.
    public func removeOverride<Value, Kind>(_ key: ContextKey<Value, Kind>, actor: String = "code") {
        removeOverride(keyNamed: key.name, actor: actor)
    }

    /// Removes the override of a key given by name, if it has one, from memory and from the
    /// overrides file (where a persisted value for it is removed too, even when a later plain
    /// override was in force).
    public func removeOverride(keyNamed name: String, actor: String = "code") {
        let key = fullName(name)
        if store.parent != nil {
            store.commitScopeOverrides(cause: .scope(store.label), keys: [key]) { $0[key] = nil }
        } else {
            let (section, file) = (section(of: key), store.overridesFile)
            store.commit(cause: .override(actor: actor), affecting: .some([key])) { state in
                state.writeOverride(key, nil, section: section, file: file)
            }
            // Saved before returning; a failure shows in `status` (this call does not throw).
            try? file?.flush()
        }
    }

    /// Removes every override (in a child context: every scope override), from memory and
    /// from the overrides file.
    public func removeAllOverrides(actor: String = "code") {
        if store.parent != nil {
            let keys = Array(store.scopeOverrides.keys)
            store.commitScopeOverrides(cause: .scope(store.label), keys: keys) { $0.removeAll() }
        } else {
            let file = store.overridesFile
            store.commit(cause: .override(actor: actor)) { state -> ContextStore.AffectedKeys in
                let keys = Set(state.inputs.overrides.keys).union(state.overridesOnDisk.keys).sorted()
                for key in keys { state.writeOverride(key, nil, section: section(of: key), file: file) }
                return .some(keys)
            }
            try? file?.flush()
        }
    }

    /// The overrides in force in this context, by full key (for a child: its scope overrides).
    package var overrides: [String: AttributedValue] {
        guard store.parent == nil else { return store.scopeOverrides }
        let definitions = self.definitions
        return store.inputs.overrides.filter { definitions[$0.key] != nil }
    }

    /// Flips a bool flag's override (from its current value); returns the new value.
    @discardableResult
    public func toggle(keyNamed name: String, actor: String = "code") throws(ContextWriteError) -> Bool {
        let key = fullName(name)
        guard let definition = definitions[key] else { throw undefined(key) }
        guard definition.type == .bool else { throw .notToggleable(key: key, type: definition.type) }
        let current = store.snapshot().value(forKeyNamed: key)?.boolValue ?? false
        try setOverride(keyNamed: name, to: .bool(!current), actor: actor)
        return !current
    }

    /// Sets the user's value for a preference (layer 6); it wins over every file.
    ///
    /// With a preferences file, the call returns once the file on disk holds the value
    /// (writers at the same moment share one disk write); a failed save throws
    /// ``ContextWriteError/notPersisted(key:path:reason:)`` with the value in force for this run.
    ///
    /// ```swift
    /// try context.setPreference(.darkMode, to: true)
    /// ```
    public func setPreference<Value>(
        _ key: UserPreferenceKey<Value>, to value: Value, actor: String = "code"
    ) throws(ContextWriteError) {
        try setPreference(keyNamed: key.name, to: value.flagValue, actor: actor)
    }

    /// Sets a preference given by name with an untyped value.
    public func setPreference(keyNamed name: String, to value: JSONValue, actor: String = "code")
        throws(ContextWriteError)
    {
        let key = fullName(name)
        let checked = try checkedValue(value, forKeyNamed: key)
        guard definitions[key]?.kind == .preference else { throw .notAPreference(key) }
        let file = rootStore.preferencesFile
        let attributed = AttributedValue(checked, actor: actor, isPersisted: file != nil)
        rootStore.commit(cause: .preference(actor: actor), affecting: .some([key])) { state in
            state.writePreference(key, attributed, file: file)
        }
        if let file { try save(file, key: key) }
    }

    /// Removes the user's value for a preference (and from the preferences file), so files decide again.
    public func removePreference(keyNamed name: String, actor: String = "code") {
        let key = fullName(name)
        let file = rootStore.preferencesFile
        rootStore.commit(cause: .preference(actor: actor), affecting: .some([key])) { state in
            state.writePreference(key, nil, file: file)
        }
        try? file?.flush()
    }

    /// The evaluation context targeting rules read here (user, device, country, …): in a
    /// child, its own merged over its parent's, key by key.
    public var evaluationContext: EvaluationContext { store.snapshot().evaluationContext }

    /// Replaces the evaluation context; flags with targeting are evaluated again, and their
    /// observers notified if their values change.
    ///
    /// In a child context it replaces the child's own evaluation context, which is merged
    /// over the parent's key by key (the child's targeting key and attributes win, OpenFeature's
    /// rule), so the parent and the child's siblings are untouched; `.empty` goes back to
    /// reading the parent's. A child made per request with
    /// ``makeChild(label:evaluationContext:)`` evaluates its targeted keys lazily, each on
    /// its first read.
    ///
    /// ```swift
    /// context.setEvaluationContext(EvaluationContext(targetingKey: "user-42", attributes: ["country": "FR"]))
    /// ```
    public func setEvaluationContext(_ evaluationContext: EvaluationContext) {
        if store.parent != nil {
            store.commitChildLayers(cause: .evaluationContext) { layers, layout in
                layers.evaluationContext = evaluationContext
                return layout.targetedKeys
            }
        } else {
            store.commit(cause: .evaluationContext, affecting: .some(store.snapshot().layout.targetedKeys)) {
                $0.inputs.evaluationContext = evaluationContext
            }
        }
    }

    var rootStore: ContextStore { store.root }

    func checkedValue(_ value: JSONValue, forKeyNamed key: String) throws(ContextWriteError) -> JSONValue {
        guard let definition = definitions[key] else { throw undefined(key) }
        switch definition.check(value) {
        case .success(let checked): return checked
        case .failure(let problem): throw .invalidValue(key: key, problem: problem)
        }
    }

    /// The overlay section a key is written under.
    func section(of key: String) -> PersistentOverlayFile.Section {
        definitions[key]?.kind == .preference ? .preferences : .flags
    }

    private func undefined(_ key: String) -> ContextWriteError {
        .undefinedKey(key, suggestion: Suggestions.closest(to: key, among: definitions.keys))
    }
}
