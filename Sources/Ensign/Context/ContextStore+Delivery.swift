extension ContextStore {
    /// Records a root commit's transaction and queues its round. Called under the writer lock.
    ///
    /// `retargeted` are the targeted keys the commit may have changed for a descendant with an
    /// evaluation context of its own (all of them when the evaluation context changed), which
    /// the keys changed here do not tell.
    func enqueueRound(
        cause: ChangeCause, changed: [String], old: ContextSnapshot, new: ContextSnapshot, sequence: UInt64,
        retargeted: [String], diagnostics: [Diagnostic] = []
    ) {
        let changes = Self.changes(of: changed, from: old, to: new)
        let transaction =
            changes.isEmpty && diagnostics.isEmpty
            ? 0 : changeLog.record(cause: cause, context: label, changes: changes, diagnostics: diagnostics)
        delivery.enqueue { [self] in
            deliver(
                ChangeBatch(cause: cause, changes: changes, transaction: transaction), snapshot: new,
                sequence: sequence,
                retargeted: retargeted)
        }
    }

    /// Records a child's own commit and queues its round. Called under the writer lock for
    /// every commit of the child's layers, even one that changes no value: the round also moves
    /// the child's delivered layers forward in commit order, which later parent rounds rely on.
    func enqueueChildRound(
        cause: ChangeCause, changed: [String], old: ContextSnapshot, new: ContextSnapshot,
        layers: ChildLayers, sequence: UInt64, retargeted: [String]
    ) {
        let changes = Self.changes(of: changed, from: old, to: new)
        let transaction = changes.isEmpty ? 0 : changeLog.record(cause: cause, context: label, changes: changes)
        delivery.enqueue { [self] in
            // Diffed against what the observers last saw, which is `old` when every earlier
            // round has been delivered, as the queue guarantees.
            let delivered = childState!.withLock { state -> [ChangeBatch.Change] in
                defer {
                    state.delivered = new
                    state.deliveredLayers = layers
                }
                return Self.changes(of: changed, from: state.delivered, to: new, onlyChanged: true)
            }
            guard !delivered.isEmpty || !retargeted.isEmpty else { return }
            deliver(
                ChangeBatch(cause: cause, changes: delivered, transaction: transaction), snapshot: new,
                sequence: sequence, retargeted: retargeted)
        }
    }

    /// The changes of `keys` between two snapshots (with `onlyChanged`, only those whose value differs).
    private static func changes(
        of keys: [String], from old: ContextSnapshot, to new: ContextSnapshot, onlyChanged: Bool = false
    ) -> [ChangeBatch.Change] {
        keys.compactMap { key in
            let (before, after) = (old.entry(named: key), new.entry(named: key))
            if onlyChanged, before.hasSameValue(as: after) { return nil }
            return ChangeBatch.Change(key: key, oldValue: before.value, newValue: after.value, source: after.source)
        }
    }

    /// Runs this store's observers for `batch` (`snapshot` is this store's snapshot as of the
    /// round's commit), then passes the round to the children.
    private func deliver(_ batch: ChangeBatch, snapshot: ContextSnapshot, sequence: UInt64, retargeted: [String]) {
        if !batch.changes.isEmpty { runObservers(for: batch, snapshot: snapshot) }
        for child in liveChildren() {
            child.parentRoundArrived(batch, parentSnapshot: snapshot, sequence: sequence, retargeted: retargeted)
        }
    }

    /// Runs this store's observers of the keys in `batch`, and tells Observation.
    private func runObservers(for batch: ChangeBatch, snapshot: ContextSnapshot) {
        let keys = batch.keys
        notifyObservationRegistrar(of: keys)
        let (keyed, batchObservers) = observers.observers(for: keys)
        var runs: [ContextTransaction.ObserverRun] = []
        let clock = ContinuousClock()
        for (key, observer) in keyed where observer.liveness.isActive.load(ordering: .acquiring) {
            let entry = snapshot.entry(named: key)
            guard !observer.logsOwnRuns else {
                observer.handler(key, entry, batch.transaction)
                continue
            }
            let duration = clock.measure { observer.handler(key, entry, batch.transaction) }
            runs.append(run(observer.label, keys: [key], duration))
        }
        for observer in batchObservers where observer.liveness.isActive.load(ordering: .acquiring) {
            var filtered = batch
            if let wanted = observer.keys { filtered.changes = batch.changes.filter { wanted.contains($0.key) } }
            if let prefix = observer.prefix { filtered.changes = filtered.changes.filter { $0.key.hasPrefix(prefix) } }
            if let flagSet = observer.flagSet {
                // Membership is the round's: a reload that moves a flag into the set reports it.
                let definitions = snapshot.layout.definitions
                filtered.changes = filtered.changes.filter { change in
                    guard let definition = definitions[change.key] else { return false }
                    return definition.kind == .flag && definition.flagSetID == flagSet
                }
                guard !filtered.changes.isEmpty else { continue }
            }
            guard !observer.logsOwnRuns else {
                observer.handler(filtered)
                continue
            }
            let duration = clock.measure { observer.handler(filtered) }
            runs.append(run(observer.label, keys: filtered.keys, duration))
        }
        changeLog.append(runs, to: batch.transaction)
    }

    private func run(_ label: String, keys: [String], _ duration: Duration) -> ContextTransaction.ObserverRun {
        changeLog.run(label, keys: keys, duration)
    }

    /// A parent's round reached this child: the child's snapshot as of that commit is the
    /// parent's round snapshot with the layers the child had then (its delivered ones), so
    /// a key the child overrides (masks) notifies nobody, and a child write committed after
    /// the parent's is reported by the child's own round, not this one.
    ///
    /// A child with an evaluation context of its own also compares the `retargeted` keys:
    /// its targeted values can change where the parent's did not.
    private func parentRoundArrived(
        _ parentBatch: ChangeBatch, parentSnapshot: ContextSnapshot, sequence: UInt64, retargeted: [String]
    ) {
        guard let childState else { return }
        let round = childState.withLock { state -> (ContextSnapshot, [ChangeBatch.Change], layoutChanged: Bool)? in
            // Rounds committed before the child existed are already in its first snapshot.
            guard sequence > state.createdAt else { return nil }
            let new = Self.derive(from: parentSnapshot, layers: state.deliveredLayers, sequence: 0)
            // New definitions can make a scope override stop (or start) fitting: a key the
            // parent did not change can change here, so every key is compared.
            let layoutChanged = new.layout !== state.delivered.layout
            var keys = layoutChanged ? new.changedKeys(since: state.delivered) : parentBatch.keys
            if !layoutChanged, state.deliveredLayers.evaluationContext != nil { keys = (keys + retargeted).uniqued() }
            let changes = Self.changes(of: keys, from: state.delivered, to: new, onlyChanged: true)
            state.delivered = new
            return (new, changes, layoutChanged)
        }
        guard let (new, changes, layoutChanged) = round else { return }
        // Unchanged here means unchanged in every descendant too (they derive from this
        // snapshot), unless the definitions changed under their own scope overrides, or the
        // round retargets descendants with evaluation contexts of their own.
        guard !changes.isEmpty || layoutChanged || !retargeted.isEmpty else { return }
        // A round that changed nothing in the parent was not logged there; what it changed
        // here is logged as this child's.
        let transaction =
            parentBatch.transaction == 0 && !changes.isEmpty
            ? changeLog.record(cause: parentBatch.cause, context: label, changes: changes) : parentBatch.transaction
        deliver(
            ChangeBatch(cause: parentBatch.cause, changes: changes, transaction: transaction),
            snapshot: new, sequence: sequence, retargeted: retargeted)
    }

    private func notifyObservationRegistrar(of keys: [String]) {
        let subject = AppContext(store: self, keyPrefix: nil)
        for key in keys {
            let keyPath = \AppContext.[observedKey: key]
            registrar.willSet(subject, keyPath: keyPath)
            registrar.didSet(subject, keyPath: keyPath)
        }
    }
}
