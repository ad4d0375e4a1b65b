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
    /// The same values with targeting evaluated for `evaluationContext` merged over this
    /// snapshot's own, exactly as a child context made with it reads them
    /// (``AppContext/makeChild(label:evaluationContext:)``), without making one: for a server
    /// answering one request, which would otherwise make and free a context per request.
    package func evaluating(for evaluationContext: EvaluationContext) -> ContextSnapshot {
        ContextSnapshot(
            layout: layout, inputs: inputs, chunks: chunks, generation: generation, scopeOverrides: scopeOverrides,
            targeting: ChildTargeting(evaluationContext: evaluationContext.merged(over: self.evaluationContext)),
            scopedKeys: scopedKeys)
    }
}
