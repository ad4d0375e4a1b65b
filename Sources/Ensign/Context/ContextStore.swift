import Observation
import Synchronization

/// The machinery behind one node of a context tree: the current snapshot, the write path,
/// observers and their delivery. A root store resolves snapshots from its inputs; a child
/// store derives them from its parent's snapshot plus its own scope overrides.
///
/// Synchronisation: `current` is the one point readers touch (a lock held only to copy a
/// reference). Writers serialise on `writer`, build the next snapshot outside `current`,
/// swap it in, and queue the notification round while still holding `writer`, so rounds
/// are delivered in commit order, outside every lock.
final class ContextStore: Sendable {
    let label: String
    let parent: ContextStore?
    let delivery: DeliveryQueue
    let changeLog: ChangeLog
    let observers = ObserverRegistry()
    let registrar = ObservationRegistrar()
    let settings: ContextSettings
    /// Where a root store's files come from, for reloads; `nil` for children.
    let loader: ContextLoader?
    /// Watches the files while the store lives (root stores with watching on).
    let watcher = LockedState<FileWatcher?>(nil)
    private let diagnostics = LockedState<[Diagnostic]>([])
    /// How many times the files were read again (tests check that unchanged files are not).
    let reloadCount = Atomic<Int>(0)

    private let current: LockedState<ContextSnapshot>
    private let writer: LockedState<WriterState>
    private let children = LockedState<[WeakStore]>([])
    /// What this store's observers have last been told about (children diff against it).
    private let lastDelivered: LockedState<ContextSnapshot>

    struct WriterState {
        var inputs: ContextInputs
        var generation: UInt64
        var scopeOverrides: [String: AttributedValue] = [:]
        var status = ContextStatus.healthy
        /// The fleet layer's health, once a fleet source has reported (root stores).
        var fleet: FleetStatus?
    }

    /// A root store over `inputs`.
    init(label: String, inputs: ContextInputs, settings: ContextSettings, loader: ContextLoader? = nil) {
        self.label = label
        self.parent = nil
        self.settings = settings
        self.loader = loader
        self.delivery = DeliveryQueue()
        self.changeLog = ChangeLog(
            capacity: settings.changeLogCapacity, slowObserverThreshold: settings.slowObserverThreshold)
        let snapshot = ContextSnapshot.resolving(inputs, generation: 1)
        current = LockedState(snapshot)
        lastDelivered = LockedState(snapshot)
        writer = LockedState(WriterState(inputs: inputs, generation: 1))
        _ = changeLog.record(cause: .load, context: label, changes: [])
    }

    /// A child store of `parent`, sharing its delivery queue and change log.
    init(label: String, parent: ContextStore) {
        self.label = label
        self.parent = parent
        self.settings = parent.settings
        self.loader = nil
        self.delivery = parent.delivery
        self.changeLog = parent.changeLog
        let snapshot = parent.snapshot()
        current = LockedState(snapshot)
        lastDelivered = LockedState(snapshot)
        writer = LockedState(WriterState(inputs: snapshot.inputs, generation: 0))
        parent.children.withLock { $0.append(WeakStore(self)) }
    }

    deinit {
        watcher.withLock { $0?.stop() }
        try? loader?.preferencesFile?.flush()
        try? loader?.overridesFile?.flush()
        observers.contextDidEnd()
    }

    var preferencesFile: PersistentOverlayFile? { loader?.preferencesFile }
    var overridesFile: PersistentOverlayFile? { loader?.overridesFile }

    // MARK: Reading

    /// Tells Observation that `subject` read the key `keyPath` stands for.
    ///
    /// On the read path: called here, the registrar is used in place. Called from outside as
    /// `store.registrar.access(…)`, it was copied on every read (a resilient struct: a copy
    /// and a destroy through value witnesses, with a retain and a release).
    func trackAccess(_ subject: AppContext, keyPath: KeyPath<AppContext, Int>) {
        registrar.access(subject, keyPath: keyPath)
    }

    /// The current snapshot. For a child, derived from the parent's current snapshot.
    @inline(__always)
    func snapshot() -> ContextSnapshot {
        guard let parent else { return current.withLock { $0 } }
        let parentSnapshot = parent.snapshot()
        return current.withLock { cached in
            if cached.generation == parentSnapshot.generation { return cached }
            let overrides = writer.withLock { $0.scopeOverrides }
            cached = derive(from: parentSnapshot, overrides: overrides)
            return cached
        }
    }

    var status: ContextStatus {
        if let parent { return parent.status }
        return writer.withLock { $0.status.including($0.fleet) }
    }

    /// A child's snapshot: the parent's with this store's scope overrides on top.
    private func derive(from parentSnapshot: ContextSnapshot, overrides: [String: AttributedValue]) -> ContextSnapshot {
        guard !overrides.isEmpty else { return parentSnapshot }
        var chunks = parentSnapshot.chunks
        for (key, value) in overrides {
            guard let slot = parentSnapshot.layout.slot(for: key) else { continue }
            let definition = parentSnapshot.layout.definitionBySlot[slot]
            chunks[slot >> ContextSnapshot.chunkShift][slot & (ContextSnapshot.chunkSize - 1)] = ResolvedEntry(
                value: value.value, variant: definition.variantName(for: value.value), reason: .override,
                errorCode: nil, errorMessage: nil,
                source: ValueSource(layer: .scopeOverride, actor: value.actor, time: value.time))
        }
        return ContextSnapshot(
            layout: parentSnapshot.layout, inputs: parentSnapshot.inputs, chunks: chunks,
            generation: parentSnapshot.generation, scopeOverrides: overrides)
    }

    // MARK: Writing

    /// Which keys a change can affect: the named ones, or all (reloads, evaluation context).
    enum AffectedKeys {
        case some([String])
        case all
    }

    /// Applies `change` to the inputs as one transaction, swaps in the resulting snapshot and
    /// delivers the notification round. Returns the keys whose values changed.
    ///
    /// `diagnostics` are recorded with the transaction (a transaction that changes no value
    /// is logged only when it has some).
    @discardableResult
    func commit<Failure: Error>(
        cause: ChangeCause, affecting affected: AffectedKeys, diagnostics: [Diagnostic] = [],
        _ change: (inout ContextInputs) throws(Failure) -> Void
    ) throws(Failure) -> [String] {
        precondition(parent == nil, "child contexts commit scope overrides with commitScopeOverrides")
        let changed = try writer.withLock { (state) throws(Failure) -> [String] in
            var inputs = state.inputs
            try change(&inputs)
            state.generation += 1
            let old = current.withLock { $0 }
            let new: ContextSnapshot
            let changed: [String]
            switch affected {
            case .some(let keys) where inputs.layout === old.layout:
                (new, changed) = old.updating(inputs, keys: keys, generation: state.generation)
            default:
                new = ContextSnapshot.resolving(inputs, generation: state.generation)
                changed = new.changedKeys(since: old)
            }
            state.inputs = inputs
            if state.fleet != nil { state.updateFleet { _ in } }
            current.withLock { $0 = new }
            if !changed.isEmpty {
                enqueueRound(cause: cause, changed: changed, old: old, new: new, diagnostics: diagnostics)
            } else if !diagnostics.isEmpty {
                _ = changeLog.record(cause: cause, context: label, changes: [], diagnostics: diagnostics)
            }
            return changed
        }
        delivery.deliverPending()
        return changed
    }

    /// Changes the fleet layer's health as reported by its source; returns it before and after.
    func updateFleetStatus(
        source: String, _ change: (inout FleetStatus) -> Void
    ) -> (before: FleetStatus?, after: FleetStatus) {
        writer.withLock { state in
            let before = state.fleet
            if state.fleet == nil { state.fleet = FleetStatus(source: source, revision: 0, isReachable: true) }
            state.updateFleet(change)
            return (before, state.fleet!)
        }
    }

    /// Replaces a child's scope overrides for `keys` as one transaction.
    @discardableResult
    func commitScopeOverrides(
        cause: ChangeCause, keys: [String], _ change: (inout [String: AttributedValue]) -> Void
    ) -> [String] {
        guard let parent else { preconditionFailure("only child contexts have scope overrides") }
        let changed = writer.withLock { state -> [String] in
            change(&state.scopeOverrides)
            let old = current.withLock { $0 }
            let new = derive(from: parent.snapshot(), overrides: state.scopeOverrides)
            current.withLock { $0 = new }
            let changed = keys.filter { !old.entry(named: $0).hasSameValue(as: new.entry(named: $0)) }
            if !changed.isEmpty { enqueueRound(cause: cause, changed: changed, old: old, new: new) }
            return changed
        }
        delivery.deliverPending()
        return changed
    }

    func setStatus(_ status: ContextStatus) {
        writer.withLock { $0.status = status }
    }

    /// Warnings from the last successful load.
    var loadDiagnostics: [Diagnostic] {
        get { diagnostics.withLock { $0 } }
        set { diagnostics.withLock { $0 = newValue } }
    }

    /// Logs problems found at load (a preferences file set aside, warnings).
    func recordLoadProblems(_ found: [Diagnostic]) {
        _ = changeLog.record(cause: .load, context: label, changes: [], diagnostics: found)
    }

    /// Re-reads every file (root stores) and commits the result as one transaction, or
    /// records a failed reload and keeps the current values. `changedFiles` (from the
    /// watcher) names the cause; without it the cause lists every file read.
    func reloadFromFiles(changedFiles: [String]? = nil) -> [Diagnostic] {
        guard let loader else { return [] }
        reloadCount.add(1, ordering: .relaxed)
        let current = inputs
        // When only overlays changed, keep the definitions and re-resolve only the keys the
        // old or new overlays mention: a deployment file edit costs its own size, not the app's.
        let onlyOverlays = changedFiles.map { !$0.isEmpty && $0.allSatisfy(loader.source.isOverlay) } ?? false
        let outcome =
            (onlyOverlays ? loader.reloadedOverlays(from: current) : nil) ?? loader.reloadedInputs(from: current)
        switch outcome {
        case .failure(let failure):
            recordFailedReload(failure.diagnostics, files: changedFiles ?? failure.files)
            return failure.diagnostics
        case .success(let (next, diagnostics)):
            loadDiagnostics = diagnostics
            setStatus(.healthy)
            let cause = ChangeCause.reload(files: changedFiles ?? next.layout.definitions.files)
            let affected: AffectedKeys =
                next.layout === current.layout ? .some(Self.overlayKeys(current) + Self.overlayKeys(next)) : .all
            commit(cause: cause, affecting: affected) { $0 = next }
            return diagnostics
        }
    }

    /// Every key an input's environment and deployment overlays set.
    private static func overlayKeys(_ inputs: ContextInputs) -> [String] {
        ([inputs.environmentOverlay].compactMap { $0 } + inputs.deploymentOverlays).flatMap { overlay in
            Array(overlay.flags.keys) + Array(overlay.preferences.keys)
        }
    }

    /// Re-reads the preferences or overrides file after another process (or a person) changed it.
    func reloadPersistedValues(preferences: Bool, overrides: Bool) {
        guard let loader else { return }
        let definitions = inputs.layout.definitions
        let newPreferences = preferences ? loader.loadPreferences(definitions: definitions) : nil
        let newOverrides = overrides ? loader.loadOverrides(definitions: definitions) : nil
        let found = (newPreferences?.diagnostics ?? []) + (newOverrides?.diagnostics ?? [])
        if !found.isEmpty { recordLoadProblems(found) }
        let files = [
            newPreferences.flatMap { _ in loader.preferencesFile?.path },
            newOverrides.flatMap { _ in loader.overridesFile?.path },
        ]
        .compactMap { $0 }
        commit(cause: .reload(files: files), affecting: .all) { inputs in
            if let newPreferences { inputs.preferences = newPreferences.values }
            if let newOverrides {
                inputs.overrides = ContextLoader.mergingOverrides(inputs.overrides, persisted: newOverrides.values)
            }
        }
    }

    /// Marks the context degraded and logs the failure; the values stay as they were.
    func recordFailedReload(_ found: [Diagnostic], files: [String]) {
        writer.withLock { state in
            let since = state.status.isDegraded ? state.status.since : .now()
            state.status = ContextStatus(isDegraded: true, diagnostics: found, since: since)
            _ = changeLog.record(cause: .failedReload(files: files), context: label, changes: [], diagnostics: found)
        }
    }

    /// The current inputs (for building the next ones outside a commit, such as a reload).
    var inputs: ContextInputs { writer.withLock { $0.inputs } }

    var scopeOverrides: [String: AttributedValue] { writer.withLock { $0.scopeOverrides } }

    // MARK: Delivering

    private func enqueueRound(
        cause: ChangeCause, changed: [String], old: ContextSnapshot, new: ContextSnapshot,
        diagnostics: [Diagnostic] = []
    ) {
        let changes = changed.map { key in
            let entry = new.entry(named: key)
            return KeyChange(
                key: key, oldValue: old.entry(named: key).value, newValue: entry.value, source: entry.source)
        }
        let transaction = changeLog.record(cause: cause, context: label, changes: changes, diagnostics: diagnostics)
        delivery.enqueue { [self] in
            lastDelivered.withLock { $0 = new }
            notify(ChangeBatch(cause: cause, changes: changes, transaction: transaction), snapshot: new)
        }
    }

    /// Runs this store's observers for `batch`, then tells the children.
    private func notify(_ batch: ChangeBatch, snapshot: ContextSnapshot) {
        let keys = batch.keys
        notifyObservationRegistrar(of: keys)
        let (keyed, batchObservers) = observers.observers(for: keys)
        var runs: [ObserverRun] = []
        let clock = ContinuousClock()
        for (key, observer) in keyed where observer.liveness.isActive.load(ordering: .acquiring) {
            let entry = snapshot.entry(named: key)
            let duration = clock.measure { observer.handler(key, entry) }
            runs.append(run(observer.label, keys: [key], duration))
        }
        for observer in batchObservers where observer.liveness.isActive.load(ordering: .acquiring) {
            var filtered = batch
            if let wanted = observer.keys { filtered.changes = batch.changes.filter { wanted.contains($0.key) } }
            if let prefix = observer.prefix { filtered.changes = filtered.changes.filter { $0.key.hasPrefix(prefix) } }
            let duration = clock.measure { observer.handler(filtered) }
            runs.append(run(observer.label, keys: filtered.keys, duration))
        }
        changeLog.append(runs, to: batch.transaction)
        for child in liveChildren() { child.parentDidChange(batch) }
    }

    private func run(_ label: String, keys: [String], _ duration: Duration) -> ObserverRun {
        ObserverRun(label: label, keys: keys, duration: duration, isSlow: duration > changeLog.slowObserverThreshold)
    }

    /// A parent's round reached this child: diff what its observers last saw against the
    /// current derived snapshot, so a key the child overrides (masks) notifies nobody.
    private func parentDidChange(_ parentBatch: ChangeBatch) {
        let new = snapshot()
        let old = lastDelivered.withLock { previous in
            defer { previous = new }
            return previous
        }
        let changes = parentBatch.changes.compactMap { change -> KeyChange? in
            let (before, after) = (old.entry(named: change.key), new.entry(named: change.key))
            guard !before.hasSameValue(as: after) else { return nil }
            return KeyChange(key: change.key, oldValue: before.value, newValue: after.value, source: after.source)
        }
        // Unchanged here means unchanged in every descendant too: they derive from this snapshot.
        guard !changes.isEmpty else { return }
        notify(
            ChangeBatch(cause: parentBatch.cause, changes: changes, transaction: parentBatch.transaction), snapshot: new
        )
    }

    private func liveChildren() -> [ContextStore] {
        children.withLock { children in
            children.removeAll { $0.store == nil }
            return children.compactMap(\.store)
        }
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

/// A weak reference to a child store, so children go away when their context is released.
private struct WeakStore: Sendable {
    weak var store: ContextStore?

    init(_ store: ContextStore) {
        self.store = store
    }
}

/// Tuning that a context tree shares.
struct ContextSettings: Sendable {
    var changeLogCapacity = 256
    var slowObserverThreshold: Duration = .milliseconds(16)
    /// Marks ``AppContext/unconfigured``, whose reads print a debug hint.
    var isUnconfigured = false
}
