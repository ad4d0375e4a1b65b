extension ContextStore {
    /// Which keys a change can affect: the named ones, or all (a new layout).
    enum AffectedKeys {
        case some([String])
        case all

        /// Both sets of keys.
        func union(_ other: AffectedKeys) -> AffectedKeys {
            switch (self, other) {
            case (.some(let mine), .some(let theirs)): return .some(mine + theirs)
            default: return .all
            }
        }
    }

    /// Applies `change` to the root's state as one transaction, swaps in the resulting
    /// snapshot and delivers the notification round. Returns the keys whose values changed.
    ///
    /// `diagnostics` are recorded with the transaction (a transaction that changes no value
    /// is logged only when it has some).
    @discardableResult
    func commit<Failure: Error>(
        cause: ChangeCause, affecting affected: AffectedKeys, diagnostics: [Diagnostic] = [],
        _ change: (inout RootState) throws(Failure) -> Void
    ) throws(Failure) -> [String] {
        try commit(cause: cause, diagnostics: diagnostics) { (state) throws(Failure) -> AffectedKeys in
            try change(&state)
            return affected
        }
    }

    /// Applies `change`, which says which keys it may have changed, as one transaction.
    ///
    /// `change` runs under the tree's writer lock on the state as it is now, so it never
    /// undoes a write that landed before it; if it throws, nothing changes.
    @discardableResult
    func commit<Failure: Error>(
        cause: ChangeCause, diagnostics: [Diagnostic] = [], _ change: (inout RootState) throws(Failure) -> AffectedKeys
    ) throws(Failure) -> [String] {
        guard parent == nil else { preconditionFailure("child contexts commit with commitScopeOverrides") }
        let changed = try tree.writer.withLock { (state) throws(Failure) -> [String] in
            var next = state
            let affected = try change(&next)
            let sequence = next.nextSequence()
            // Only commits publish, and they hold the writer lock: this is the current one.
            let old = snapshot()
            let new: ContextSnapshot
            let changed: [String]
            let retargeted: [String]
            switch affected {
            case .some(let keys) where next.inputs.layout === old.layout:
                let keys = keys.uniqued()
                (new, changed) = old.updating(next.inputs, keys: keys, generation: sequence)
                retargeted =
                    next.inputs.evaluationContext != old.inputs.evaluationContext
                    ? new.layout.targetedKeys : keys.filter(new.layout.isTargeted)
            default:
                new = ContextSnapshot.resolving(next.inputs, generation: sequence)
                changed = new.changedKeys(since: old)
                retargeted = new.layout.targetedKeys
            }
            if next.fleet != nil { next.updateFleet { _ in } }
            state = next
            publish(new)
            // A round that changes nothing here still goes to children with evaluation
            // contexts of their own when it touched targeted keys: their values can change.
            if !changed.isEmpty || (!retargeted.isEmpty && hasChildren) {
                enqueueRound(
                    cause: cause, changed: changed, old: old, new: new, sequence: sequence, retargeted: retargeted,
                    diagnostics: diagnostics)
            } else if !diagnostics.isEmpty {
                _ = changeLog.record(cause: cause, context: label, changes: [], diagnostics: diagnostics)
            }
            return changed
        }
        delivery.deliverPending()
        return changed
    }

    /// Changes a child's own layers (scope overrides, evaluation context) as one transaction.
    ///
    /// `change` returns the keys it may have changed, given the layout in force.
    @discardableResult
    func commitChildLayers(
        cause: ChangeCause, _ change: (inout ChildLayers, KeyLayout) -> [String]
    ) -> [String] {
        guard let parent, let childState else { preconditionFailure("only child contexts have layers of their own") }
        let changed = tree.writer.withLock { root -> [String] in
            let sequence = root.nextSequence()
            // No commit can run in the tree now, so this is the parent as of this commit.
            let parentSnapshot = parent.snapshot()
            return childState.withLock { state -> [String] in
                // The parent cannot change now, and no cache is newer than its latest snapshot.
                let old =
                    state.cachedParentGeneration == parentSnapshot.generation
                    ? state.cached
                    : Self.derive(from: parentSnapshot, layers: state.own, sequence: state.ownSequence)
                let keys = change(&state.own, parentSnapshot.layout).uniqued()
                if state.own.evaluationContext == .empty { state.own.evaluationContext = nil }
                state.ownSequence = sequence
                let new = Self.derive(from: parentSnapshot, layers: state.own, sequence: sequence)
                state.cached = new
                state.cachedParentGeneration = parentSnapshot.generation
                let contextChanged = new.evaluationContext != old.evaluationContext
                let candidates = contextChanged ? (keys + new.layout.targetedKeys).uniqued() : keys
                let changed = candidates.filter { !old.entry(named: $0).hasSameValue(as: new.entry(named: $0)) }
                let retargeted = contextChanged ? new.layout.targetedKeys : keys.filter(new.layout.isTargeted)
                enqueueChildRound(
                    cause: cause, changed: changed, old: old, new: new, layers: state.own, sequence: sequence,
                    retargeted: retargeted)
                return changed
            }
        }
        delivery.deliverPending()
        return changed
    }

    /// Changes a child's scope overrides for `keys` as one transaction.
    @discardableResult
    func commitScopeOverrides(
        cause: ChangeCause, keys: [String], _ change: (inout [String: AttributedValue]) -> Void
    ) -> [String] {
        commitChildLayers(cause: cause) { layers, _ in
            change(&layers.overrides)
            return keys
        }
    }

    /// Changes the fleet layer's health as reported by its source; returns it before and after.
    func updateFleetStatus(
        source: String, _ change: (inout ContextStatus.FleetHealth) -> Void
    ) -> (before: ContextStatus.FleetHealth?, after: ContextStatus.FleetHealth) {
        tree.writer.withLock { state in
            let before = state.fleet
            if state.fleet == nil {
                state.fleet = ContextStatus.FleetHealth(source: source, revision: 0, isReachable: true)
            }
            state.updateFleet(change)
            return (before, state.fleet!)
        }
    }

    /// Records the outcome of a save of a persisted file: a failure degrades the status (and
    /// is logged once) until a save succeeds.
    func recordSave(of area: RootState.ProblemArea, _ outcome: PersistenceError?) {
        tree.writer.withLock { state in
            let wasFailing = state.problems[area] != nil
            guard let outcome else {
                state.setProblem(area, nil)
                return
            }
            let diagnostic = Diagnostic(
                .error, at: .unknown(outcome.path),
                "cannot save \(outcome.path): \(outcome.message); the values stay in force for this run, and"
                    + " saving is retried with the next write")
            state.setProblem(area, [diagnostic])
            if !wasFailing {
                _ = changeLog.record(cause: .load, context: label, changes: [], diagnostics: [diagnostic])
            }
        }
    }

    /// Logs problems found at load (a preferences file set aside, warnings).
    func recordLoadProblems(_ found: [Diagnostic]) {
        _ = changeLog.record(cause: .load, context: label, changes: [], diagnostics: found)
    }
}

extension Array where Element == String {
    /// The keys without repeats, in their first order (so a round's order is deterministic).
    func uniqued() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
