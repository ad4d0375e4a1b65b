import EnsignSupport

/// A child context's targeted keys, evaluated for its own evaluation context the first time
/// each is read.
///
/// A server makes one child per request with the request's user; most requests read a few of
/// the targeted keys, so a child evaluates nothing when it is made, and each targeted key
/// once, on its first read. Entries are pure functions of the root's inputs and the merged
/// evaluation context, which never change for one instance (a change in either derives a
/// new snapshot with a new instance), so two threads that evaluate the same key at once
/// store the same entry.
final class ChildTargeting: Sendable {
    /// The evaluation context rules read here: the child's own merged over its parent's.
    let evaluationContext: EvaluationContext
    /// Entries evaluated so far, by slot. A leaf lock: rules are evaluated outside it.
    private let evaluated = LockedState<[Int: ResolvedEntry]>([:])

    init(evaluationContext: EvaluationContext) {
        self.evaluationContext = evaluationContext
    }

    /// How many keys were evaluated so far (tests check that making a child evaluates none).
    var evaluatedCount: Int { evaluated.withLock { $0.count } }

    /// The entry of the targeted key in `slot` for this evaluation context.
    ///
    /// Called only for a slot whose parent entry comes from targeting or below, so no
    /// preference or override decides it: the files and the rule do.
    func entry(at slot: Int, inputs: ContextInputs) -> ResolvedEntry {
        if let entry = evaluated.withLock({ $0[slot] }) { return entry }
        let entry = SnapshotResolver.resolveFromFiles(
            inputs.layout.definitionBySlot[slot], inputs: inputs, evaluationContext: evaluationContext)
        evaluated.withLock { $0[slot] = entry }
        return entry
    }
}

extension EvaluationContext {
    /// This context laid over `base`, OpenFeature's merge: key by key, the more specific
    /// (this) wins; the targeting key too, when this one has one.
    func merged(over base: EvaluationContext) -> EvaluationContext {
        guard base != .empty else { return self }
        return EvaluationContext(
            targetingKey: targetingKey ?? base.targetingKey,
            attributes: base.attributes.merging(attributes) { _, mine in mine })
    }
}

extension ContextSnapshot {
    /// The merged evaluation context ``details(forKeyNamed:evaluatedFor:)`` takes: `request`'s
    /// laid over this snapshot's own, as a child context made with it would read rules.
    package func evaluationContext(mergingRequest request: EvaluationContext) -> EvaluationContext {
        request.merged(over: evaluationContext)
    }

    /// A key's details as a child context made with an evaluation context reads them
    /// (``AppContext/makeChild(label:evaluationContext:)``), without making one: for a server
    /// answering one request, which would otherwise make and free a context per request, and
    /// memoize evaluations it never reads twice.
    ///
    /// - Parameter merged: the request's context already merged over this snapshot's
    ///   (``evaluationContext(mergingRequest:)``), once for all the keys a request reads.
    package func details(forKeyNamed name: String, evaluatedFor merged: EvaluationContext) -> ResolutionDetails<
        JSONValue
    > {
        let key = (scopedKeys?.prefix ?? "") + name
        guard let slot = layout.slot(for: key) else {
            return ResolutionDetails(key: key, entry: .notFound, definition: nil)
        }
        return ResolutionDetails(
            key: key, entry: entry(at: slot, evaluatedFor: merged), definition: layout.definitionBySlot[slot])
    }

    /// The entry of the full key `key` as ``details(forKeyNamed:evaluatedFor:)`` reads it.
    func entry(forKeyNamed key: String, evaluatedFor merged: EvaluationContext) -> ResolvedEntry {
        guard let slot = layout.slot(for: key) else { return .notFound }
        return entry(at: slot, evaluatedFor: merged)
    }

    private func entry(at slot: Int, evaluatedFor merged: EvaluationContext) -> ResolvedEntry {
        let entry = entry(at: slot)
        // As a child's snapshot does: only entries from targeting or below are evaluated again;
        // a preference or an override decides whatever the rule says.
        guard layout.isTargetedSlot[slot], entry.layer <= .targeting else { return entry }
        return SnapshotResolver.resolveFromFiles(
            layout.definitionBySlot[slot], inputs: inputs, evaluationContext: merged)
    }
}
