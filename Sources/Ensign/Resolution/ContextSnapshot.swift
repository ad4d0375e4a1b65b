/// One immutable, fully resolved view of every key: what a context's reads return between
/// two writes.
///
/// A context swaps in a new snapshot atomically on every write. Reading several keys from one
/// snapshot gives values that belong together even while other threads write:
///
/// ```swift
/// let snapshot = context.snapshot
/// let (shown, size) = (snapshot[.showPendingList], snapshot[.pageSize])
/// ```
///
/// A snapshot from ``AppContext/snapshot`` tells Observation which keys were read through it,
/// as the context's own subscripts do, so a SwiftUI view or `withObservationTracking` that
/// reads key K from it depends on K alone (and keeps its context alive while it is held). One
/// from ``AppContext/untrackedSnapshot`` skips that step, for loops outside any view.
public final class ContextSnapshot: Sendable {
    let layout: KeyLayout
    let inputs: ContextInputs
    /// Entries by slot, in chunks, so the next snapshot shares every chunk a write does not touch.
    let chunks: [[ResolvedEntry]]
    /// Increases with every snapshot of a root context; a child's snapshot carries the
    /// generation of the parent snapshot it was derived from.
    ///
    /// Every write to the root (a reload, an override, a fleet update, an evaluation-context
    /// change) makes a snapshot with a higher generation, even one that changes no value the
    /// root sees (a targeting rule that only other evaluation contexts reach): a server can
    /// tag responses with it (`ensign serve`'s ETag) and know they are stale when it moves.
    public let generation: UInt64
    /// A child context's own overrides, applied on top of its parent's values.
    let scopeOverrides: [String: AttributedValue]
    /// In a child context with an evaluation context of its own (or below one): its targeted
    /// keys, evaluated on first read; the chunks hold the root's entries for them.
    let targeting: ChildTargeting?
    /// For a snapshot taken through a prefix scope: how its short key names map to full ones.
    let scopedKeys: ScopedKeyTable?
    /// For a snapshot handed out by ``AppContext/snapshot``: the context whose Observation
    /// registrar hears of each read. `nil` in the snapshots a context keeps, so they never
    /// hold their context.
    let tracker: AppContext?

    static let chunkShift = 6
    static let chunkSize = 1 << chunkShift

    init(
        layout: KeyLayout, inputs: ContextInputs, chunks: [[ResolvedEntry]], generation: UInt64,
        scopeOverrides: [String: AttributedValue] = [:], targeting: ChildTargeting? = nil,
        scopedKeys: ScopedKeyTable? = nil, tracker: AppContext? = nil
    ) {
        self.layout = layout
        self.inputs = inputs
        self.chunks = chunks
        self.generation = generation
        self.scopeOverrides = scopeOverrides
        self.targeting = targeting
        self.scopedKeys = scopedKeys
        self.tracker = tracker
    }

    /// The same values, read with key names relative to a prefix scope (when `table` is
    /// given), and with each read reported to `tracker`'s Observation registrar (when given).
    func viewed(scopedBy table: ScopedKeyTable?, trackedBy tracker: AppContext?) -> ContextSnapshot {
        ContextSnapshot(
            layout: layout, inputs: inputs, chunks: chunks, generation: generation, scopeOverrides: scopeOverrides,
            targeting: targeting, scopedKeys: table, tracker: tracker)
    }

    /// The value in `slot` of a snapshot that ``givesRootValues``, without copying its entry.
    @inline(__always)
    func rootValue(at slot: Int) -> JSONValue? {
        chunks[slot >> Self.chunkShift][slot & (Self.chunkSize - 1)].value
    }

    /// Whether every value is the root's value in the same generation: no child evaluation
    /// context or scope override of its own.
    var givesRootValues: Bool { targeting == nil && scopeOverrides.isEmpty }

    /// The evaluation context targeting rules read in this snapshot: a child's own merged
    /// over its ancestors', or the root's.
    var evaluationContext: EvaluationContext { targeting?.evaluationContext ?? inputs.evaluationContext }

    /// Resolves every key from `inputs`.
    static func resolving(_ inputs: ContextInputs, generation: UInt64) -> ContextSnapshot {
        var chunks: [[ResolvedEntry]] = []
        chunks.reserveCapacity((inputs.layout.count + chunkSize - 1) / chunkSize)
        var slot = 0
        while slot < inputs.layout.count {
            let end = min(slot + chunkSize, inputs.layout.count)
            chunks.append((slot..<end).map { SnapshotResolver.resolve(slot: $0, inputs: inputs) })
            slot = end
        }
        return ContextSnapshot(layout: inputs.layout, inputs: inputs, chunks: chunks, generation: generation)
    }

    /// The next snapshot after `inputs` changed for `keys` only (same layout), and which of
    /// those keys changed value.
    func updating(_ inputs: ContextInputs, keys: some Sequence<String>, generation: UInt64) -> (
        ContextSnapshot, [String]
    ) {
        var chunks = self.chunks
        var changed: [String] = []
        for key in keys {
            guard let slot = layout.slot(for: key) else { continue }
            let entry = SnapshotResolver.resolve(slot: slot, inputs: inputs)
            let (chunk, index) = (slot >> Self.chunkShift, slot & (Self.chunkSize - 1))
            if !chunks[chunk][index].hasSameValue(as: entry) { changed.append(key) }
            chunks[chunk][index] = entry
        }
        return (ContextSnapshot(layout: layout, inputs: inputs, chunks: chunks, generation: generation), changed)
    }

    /// The keys whose values differ between `older` and this snapshot, including keys only
    /// one of them defines.
    func changedKeys(since older: ContextSnapshot) -> [String] {
        var changed: [String] = []
        for (slot, name) in layout.names.enumerated() where !older.entry(named: name).hasSameValue(as: entry(at: slot))
        {
            changed.append(name)
        }
        for name in older.layout.names where layout.slot(for: name) == nil {
            if older.entry(named: name).value != nil { changed.append(name) }
        }
        return changed
    }

    @inline(__always)
    func entry(at slot: Int) -> ResolvedEntry {
        let entry = chunks[slot >> Self.chunkShift][slot & (Self.chunkSize - 1)]
        // Layers above targeting (preference, override, scope override) win whatever the
        // rule says, so only entries from targeting or below are evaluated again here.
        guard let targeting, layout.isTargetedSlot[slot], entry.layer <= .targeting else { return entry }
        return targeting.entry(at: slot, inputs: inputs)
    }

    /// The entry for a full key name; ``ResolvedEntry/notFound`` when no definition has it.
    func entry(named name: String) -> ResolvedEntry {
        guard let slot = layout.slot(for: name) else { return .notFound }
        return entry(at: slot)
    }

    /// The value for a key, or its code default when the key is undefined, has no value
    /// or has a value of another type.
    @inline(__always)
    func value<Value: FlagValueConvertible>(identity: KeyIdentity, default defaultValue: Value) -> Value {
        guard let value = resolvedValue(identity: identity) else { return defaultValue }
        return Value(flagValue: value) ?? defaultValue
    }

    /// The resolved value of the key `identity` names; `nil` when the code default applies.
    ///
    /// The read path's non-generic core: the generic subscripts are inlined into their callers,
    /// where the value type is known, so a read looks up no type metadata at run time.
    @usableFromInline
    func resolvedValue(identity: KeyIdentity) -> JSONValue? {
        // A snapshot taken through a prefix scope reads the key's prefixed twin. A branch, not
        // `??`, so the common unscoped read takes no extra reference to the identity.
        if let scopedKeys { return trackedValue(identity: scopedKeys.identity(for: identity)) }
        return trackedValue(identity: identity)
    }

    /// The value in `identity`'s slot, after telling the tracker (if any) that it was read.
    @inline(__always)
    private func trackedValue(identity: KeyIdentity) -> JSONValue? {
        if let tracker { tracker.store.trackAccess(tracker, keyPath: identity.observationKeyPath) }
        return entryValue(identity: identity)
    }

    /// The value in `identity`'s slot, the key taken as a full name.
    @inline(__always)
    func entryValue(identity: KeyIdentity) -> JSONValue? {
        guard let slot = identity.slot(in: layout) else { return nil }
        // A branch, so that a snapshot without targeting of its own reads the value field alone.
        if targeting != nil { return entry(at: slot).value }
        return chunks[slot >> Self.chunkShift][slot & (Self.chunkSize - 1)].value
    }

    /// The value of a flag or preference key (see ``AppContext`` for the layers it resolves
    /// through).
    @inlinable
    public subscript<Value, Kind>(key: ContextKey<Value, Kind>) -> Value {
        guard let value = resolvedValue(identity: key.identity) else { return key.defaultValue }
        return Value(flagValue: value) ?? key.defaultValue
    }

    /// The resolved value for a key name (relative to the scope the snapshot was taken
    /// through), `nil` when the code default applies.
    public func value(forKeyNamed name: String) -> JSONValue? {
        let key = (scopedKeys?.prefix ?? "") + name
        if let tracker { tracker.store.trackAccess(tracker, keyPath: \AppContext.[observedKey: key]) }
        return entry(named: key).value
    }

    /// Every defined key, sorted.
    public var keys: [String] { layout.names }

    /// The details of a key given by name (relative to the scope the snapshot was taken
    /// through), as ``AppContext/details(forKeyNamed:)`` gives them: `value` is `null` when the
    /// code default applies. Read many keys from one snapshot to get details that belong together.
    public func details(forKeyNamed name: String) -> ResolutionDetails<JSONValue> {
        let key = (scopedKeys?.prefix ?? "") + name
        if let tracker { tracker.store.trackAccess(tracker, keyPath: \AppContext.[observedKey: key]) }
        return ResolutionDetails(key: key, entry: entry(named: key), definition: definition(forKeyNamed: key))
    }

    /// The definition of a full key name.
    package func definition(forKeyNamed name: String) -> FlagDefinition? {
        layout.definitions[name]
    }
}
