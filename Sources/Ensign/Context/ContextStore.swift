import EnsignSupport
import Observation
import Synchronization

/// The machinery behind one node of a context tree: the current snapshot, the write path,
/// observers and their delivery. A root store resolves snapshots from its inputs; a child
/// store derives them from its parent's snapshot plus its own scope overrides.
///
/// Synchronisation (the whole hierarchy is documented on ``ContextTree``): readers of a root
/// take no lock: they borrow its snapshot from a ``PublishedReference``. A child's readers
/// take only its snapshot lock, held to copy a reference (or to derive a snapshot after the
/// parent changed). Every commit in the tree serialises on the tree's
/// writer lock, builds the next snapshot, publishes it, and queues its notification round
/// while still holding the lock, so rounds are delivered in commit order, outside every lock.
final class ContextStore: Sendable {
    let label: String
    let parent: ContextStore?
    let tree: ContextTree
    let observers = ObserverRegistry()
    let registrar = ObservationRegistrar()
    /// Where a root store's files come from, for reloads; `nil` for children.
    let loader: ContextLoader?
    /// Watches the files while the store lives (root stores with watching on; see
    /// ``startWatching(_:)``).
    let watcher = LockedState<FileWatcher?>(nil)
    /// Held by a reload from reading its files to committing them (see ``ContextTree``).
    let reloadLock = LockedState(())
    /// How many times the files were read again (tests check that unchanged files are not).
    let reloadCount = Atomic<Int>(0)
    /// How many of those reloads failed in some part (the last good values stayed in force).
    let failedReloadCount = Atomic<Int>(0)
    /// How many deliveries attached providers made through their ``ValueProviderUpdates``
    /// (the compatibility test checks that a stopped provider makes none).
    let providerDeliveries = Atomic<Int>(0)
    private let diagnostics = LockedState<[Diagnostic]>([])
    /// The hooks registered on this node, in the order they were added (``AppContext/addHook(_:)``).
    let hooks = LockedState<[any EvaluationHook]>([])

    /// A root's current snapshot, read without a lock and published by commits under the
    /// tree's writer lock; empty in a child (the store branches on `parent`).
    let published: PublishedReference<ContextSnapshot>
    /// A child's scope overrides and snapshots; `nil` in a root.
    let childState: LockedState<ChildState>?
    private let children = LockedState(ChildList())

    var delivery: DeliveryQueue { tree.delivery }
    var changeLog: ChangeLog { tree.changeLog }
    var settings: ContextSettings { tree.settings }

    /// A root store over `state`.
    init(label: String, state: RootState, settings: ContextSettings, loader: ContextLoader? = nil) {
        self.label = label
        self.parent = nil
        self.loader = loader
        var state = state
        state.sequence = max(state.sequence, 1)
        tree = ContextTree(state: state, settings: settings)
        published = PublishedReference(ContextSnapshot.resolving(state.inputs, generation: state.sequence))
        childState = nil
        _ = changeLog.record(cause: .load, context: label, changes: [])
    }

    /// A root store over `inputs`, with nothing persisted.
    convenience init(label: String, inputs: ContextInputs, settings: ContextSettings, loader: ContextLoader? = nil) {
        self.init(label: label, state: RootState(inputs: inputs, sequence: 1), settings: settings, loader: loader)
    }

    /// A child store of `parent`, sharing its tree, with `own` layers from the start.
    init(label: String, parent: ContextStore, own: ChildLayers = ChildLayers()) {
        self.label = label
        self.parent = parent
        self.loader = nil
        tree = parent.tree
        published = PublishedReference(nil)
        // A placeholder until the writer lock is held (it derives nothing: no layers).
        childState = LockedState(ChildState(startingFrom: parent.snapshot(), own: ChildLayers(), at: 0))
        // Under the writer lock, so that the first snapshot, the creation sequence and the
        // registration agree: rounds committed up to here are in the snapshot, and every
        // later one finds the child registered.
        tree.writer.withLock { root in
            let snapshot = parent.snapshot()
            childState!.withLock { $0 = ChildState(startingFrom: snapshot, own: own, at: root.sequence) }
            parent.children.withLock { $0.add(self) }
        }
    }

    deinit {
        tree.hookSwitch.count(hooks.withLock { $0 }, sign: -1)
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
        if parent == nil { return published.load() }
        return childSnapshot()
    }

    /// Runs `body` with the current snapshot: a root's borrowed without a lock or a retain
    /// (so `body` must be short and take no lock a commit holds; see ``PublishedReference``),
    /// a child's as ``snapshot()`` returns it.
    @inline(__always)
    func withSnapshot<Result>(_ body: (ContextSnapshot) -> Result) -> Result {
        if parent == nil { return published.read(body) }
        return body(childSnapshot())
    }

    /// Makes `snapshot` a root's current one. Called by commits, under the writer lock, which
    /// serialises publishers as ``PublishedReference`` requires.
    func publish(_ snapshot: ContextSnapshot) {
        precondition(parent == nil, "only a root context publishes snapshots")
        published.publish(snapshot)
    }

    /// A child's current snapshot: the cached one unless the parent's is newer.
    ///
    /// The parent's snapshot is taken before this child's lock (never inside it), so a read
    /// holds one snapshot lock at a time. A reader whose parent snapshot is no newer than the
    /// one the cache was derived from (another reader or a commit got there first) returns
    /// the cache: the read takes effect when it takes the lock, and the cache is at least as
    /// new. So a snapshot is only ever derived from the newest parent snapshot seen, which
    /// keeps each generation naming one content — what a grandchild's cache relies on.
    private func childSnapshot() -> ContextSnapshot {
        let parentSnapshot = parent!.snapshot()
        return childState!.withLock { state in
            guard parentSnapshot.generation > state.cachedParentGeneration else { return state.cached }
            state.cached = Self.derive(from: parentSnapshot, layers: state.own, sequence: state.ownSequence)
            state.cachedParentGeneration = parentSnapshot.generation
            return state.cached
        }
    }

    /// A child's snapshot: the parent's with the child's own layers on top — its scope
    /// overrides, and targeted keys evaluated (lazily) for its own evaluation context.
    ///
    /// Its generation is the greater of the parent's and `sequence` (the commit that last
    /// changed the layers): every commit takes a sequence number above all earlier ones, so
    /// the generation changes whenever either input does, which is what a grandchild's cache
    /// checks.
    static func derive(from parentSnapshot: ContextSnapshot, layers: ChildLayers, sequence: UInt64) -> ContextSnapshot {
        let generation = max(parentSnapshot.generation, sequence)
        guard !layers.overrides.isEmpty || layers.evaluationContext != nil || generation != parentSnapshot.generation
        else { return parentSnapshot }
        var chunks = parentSnapshot.chunks
        for (key, value) in layers.overrides {
            guard let slot = parentSnapshot.layout.slot(for: key) else { continue }
            let definition = parentSnapshot.layout.definitionBySlot[slot]
            // A value that no longer fits its definition (after a reload) is kept but not applied.
            guard case .success(let checked) = definition.check(value.value) else { continue }
            chunks[slot >> ContextSnapshot.chunkShift][slot & (ContextSnapshot.chunkSize - 1)] = ResolvedEntry(
                value: checked, variant: definition.variantName(for: checked), reason: .override,
                errorCode: nil, errorMessage: nil,
                source: ValueSource(layer: .scopeOverride, actor: value.actor, time: value.time))
        }
        // Without an evaluation context of its own, a child reads its parent's targeting
        // (and shares what it has evaluated).
        let targeting =
            layers.evaluationContext.map {
                ChildTargeting(evaluationContext: $0.merged(over: parentSnapshot.evaluationContext))
            } ?? parentSnapshot.targeting
        return ContextSnapshot(
            layout: parentSnapshot.layout, inputs: parentSnapshot.inputs, chunks: chunks,
            generation: generation, scopeOverrides: layers.overrides, targeting: targeting)
    }

    var status: ContextStatus {
        if let parent { return parent.status }
        let (status, definitions) = tree.writer.withLock { ($0.status, $0.inputs.layout.definitions) }
        var withFlags = status
        withFlags.flagProblems = definitions.configurationProblems
        return withFlags
    }

    /// Warnings from the last successful load.
    var loadDiagnostics: [Diagnostic] {
        get { diagnostics.withLock { $0 } }
        set { diagnostics.withLock { $0 = newValue } }
    }

    /// The current inputs of the tree's root.
    var inputs: ContextInputs { tree.writer.withLock { $0.inputs } }

    /// This child's scope overrides (empty for a root).
    var scopeOverrides: [String: AttributedValue] { childState?.withLock { $0.own.overrides } ?? [:] }

    /// The root of this store's tree.
    var root: ContextStore {
        var store = self
        while let parent = store.parent { store = parent }
        return store
    }

    /// Whether any child was made of this store (released ones may be counted until pruned).
    var hasChildren: Bool { children.withLock { !$0.stores.isEmpty } }

    /// The children still alive, pruning released ones.
    func liveChildren() -> [ContextStore] {
        children.withLock { children in
            children.prune()
            return children.stores.compactMap(\.store)
        }
    }
}

/// A store's children, by weak reference.
///
/// Released children are pruned when a round is delivered, and also whenever the list has
/// doubled since the last pruning: children made and released with no round in between (one
/// per request in a server) would otherwise pile up, about 60 bytes each. Amortised O(1).
private struct ChildList {
    var stores: [WeakStore] = []
    private var pruneAt = 16

    mutating func add(_ store: ContextStore) {
        if stores.count >= pruneAt { prune() }
        stores.append(WeakStore(store))
    }

    mutating func prune() {
        stores.removeAll { $0.store == nil }
        pruneAt = max(16, stores.count * 2)
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
