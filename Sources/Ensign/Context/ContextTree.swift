import EnsignSupport

/// What a root context and all of its children share: the lock every commit in the tree
/// takes, the queue that delivers notification rounds, the change log and the settings.
///
/// ## Lock hierarchy
///
/// Locks are only ever taken in this order, top to bottom, so no two threads can each hold
/// one the other waits for:
///
/// 1. `ContextStore.reloadLock` (a root's): held by a reload while it reads files and
///    commits the result, so reloads commit in the order they read. Writers never take it,
///    so a slow parse never holds up a write.
/// 2. ``writer`` (the tree's): held by every commit in the tree — root writes, child scope
///    overrides, reload commits, fleet updates — and by child creation. It orders commits,
///    and rounds are queued while holding it, so they are delivered in commit order.
/// 3. A child's snapshot lock (`ContextStore.childState`): held only to copy, replace or
///    derive a snapshot. Readers take only these, one at a time (a child asks its parent for
///    its snapshot *before* taking its own), so reads never wait for a writer and never nest
///    snapshot locks. A root's snapshot has no lock: readers borrow it from a
///    ``PublishedReference``, and commits publish the next one under the writer lock, waiting
///    only for reads already in flight (which take no lock).
/// 4. Leaf locks, which call nothing that takes another lock: the delivery queue's state,
///    the change log, the observer registry, a store's list of children, a persistent file's
///    pending changes.
final class ContextTree: Sendable {
    let writer: LockedState<RootState>
    let delivery = DeliveryQueue()
    /// Whether any store of the tree has hooks (``HookSwitch``).
    let hookSwitch = HookSwitch()
    /// The results exposure hooks have seen (``ExposureLog``).
    let exposures = ExposureLog()
    let changeLog: ChangeLog
    let settings: ContextSettings

    init(state: RootState, settings: ContextSettings) {
        writer = LockedState(state)
        self.settings = settings
        changeLog = ChangeLog(
            capacity: settings.changeLogCapacity, slowObserverThreshold: settings.slowObserverThreshold)
    }
}

/// Everything a root context's writers change; guarded by ``ContextTree/writer``.
struct RootState {
    var inputs: ContextInputs
    /// Counts commits in the whole tree (root and children). A root snapshot's generation is
    /// the sequence of the commit that made it.
    var sequence: UInt64
    /// What this context last knew the overrides file to hold, by key: on a re-read, the keys
    /// whose value in the file differs are someone else's writes; the others keep what was
    /// written in memory since (the latest write to a key wins).
    var overridesOnDisk: [String: JSONValue] = [:]
    /// The same for the preferences file.
    var preferencesOnDisk: [String: JSONValue] = [:]
    /// This context's own writes to each persisted file, so a re-read taken before a write
    /// is never mistaken for someone else's change to that key.
    var overridesWrites = PersistedWrites()
    var preferencesWrites = PersistedWrites()

    /// Counts a context's writes to one persisted file.
    struct PersistedWrites {
        /// How many writes there have been.
        var count: UInt64 = 0
        /// For each key, `count` just after its latest write.
        var lastWrite: [String: UInt64] = [:]

        mutating func record(_ key: String) {
            count += 1
            lastWrite[key] = count
        }
    }
    /// Problems not yet cleared by a good reload (or write), by the files they concern.
    var problems: [ProblemArea: ProblemRecord] = [:]
    /// The fleet layer's health, once a fleet source has reported.
    var fleet: ContextStatus.FleetHealth?

    /// The files whose failures are tracked separately: a good reload (or, for the writes,
    /// a good save) of one clears its own.
    enum ProblemArea: Int, Comparable {
        case definitions
        case preferences
        case overrides
        case preferencesWrite
        case overridesWrite

        static func < (lhs: ProblemArea, rhs: ProblemArea) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    struct ProblemRecord {
        var diagnostics: [Diagnostic]
        var since: WallClockTime
    }

    /// Records `diagnostics` as the current problem of `area` (keeping when it began), or
    /// clears it when `diagnostics` is `nil`.
    mutating func setProblem(_ area: ProblemArea, _ diagnostics: [Diagnostic]?) {
        guard let diagnostics else {
            problems[area] = nil
            return
        }
        problems[area] = ProblemRecord(diagnostics: diagnostics, since: problems[area]?.since ?? .now())
    }

    /// The status: degraded while any area has a problem, since the earliest.
    var status: ContextStatus {
        guard !problems.isEmpty else { return ContextStatus.healthy.including(fleet) }
        let areas = problems.keys.sorted()
        return ContextStatus(
            isDegraded: true, diagnostics: areas.flatMap { problems[$0]!.diagnostics },
            since: areas.map { problems[$0]!.since }.min()
        ).including(fleet)
    }

    /// The next commit's sequence number.
    mutating func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }
}

/// What a child context sets for itself: scope overrides and an evaluation context.
struct ChildLayers: Sendable {
    /// The scope overrides, by full key.
    var overrides: [String: AttributedValue] = [:]
    /// The child's own evaluation context, merged over its parent's; `nil` (never `.empty`)
    /// when it has none and reads its parent's.
    var evaluationContext: EvaluationContext?
}

/// A child context's own state; guarded by the child's snapshot lock, and changed only while
/// the tree's writer lock is held too.
struct ChildState {
    /// The child's own layers in force now.
    var own: ChildLayers
    /// The tree sequence of the commit that last changed `own`.
    var ownSequence: UInt64
    /// The last snapshot derived for readers, and the parent generation it was derived from.
    var cached: ContextSnapshot
    var cachedParentGeneration: UInt64
    /// What this child's observers were last told about, and the layers it was derived
    /// with. Rounds are delivered in commit order, so when a parent's round arrives these are
    /// exactly the child's layers as of that round's commit.
    var delivered: ContextSnapshot
    var deliveredLayers: ChildLayers
    /// The tree sequence when the child was created: earlier rounds are already in its
    /// first snapshot, so it ignores them.
    var createdAt: UInt64

    /// A new child's state: `own` over the parent's snapshot as of tree sequence `sequence`.
    init(startingFrom parentSnapshot: ContextSnapshot, own: ChildLayers, at sequence: UInt64) {
        self.own = own
        ownSequence = 0
        cached = ContextStore.derive(from: parentSnapshot, layers: own, sequence: 0)
        cachedParentGeneration = parentSnapshot.generation
        delivered = cached
        deliveredLayers = own
        createdAt = sequence
    }
}
