import Synchronization

/// Whether any hook is registered anywhere in a context tree: the one check a read makes
/// before it takes the path without hooks.
///
/// Shared by every context of a tree (root, children, scopes), so that a hook added to the
/// root reaches reads through a child made before it. Relaxed: a read racing with the first
/// registration may run without the hook, as it would have a moment earlier.
@usableFromInline
final class HookSwitch: Sendable {
    /// How many hooks are registered in the tree's stores.
    @usableFromInline let registered = Atomic<Int>(0)
    /// How many of them run for every evaluation (not ``EvaluationHook/runsForExposuresOnly``):
    /// with none, a read of a result already exposed runs no hook at all.
    let everyEvaluation = Atomic<Int>(0)

    init() {}

    /// Whether a read must run hooks.
    @inlinable
    var isOn: Bool { registered.load(ordering: .relaxed) != 0 }

    /// Whether every registered hook is an exposure hook.
    var hasOnlyExposureHooks: Bool { everyEvaluation.load(ordering: .relaxed) == 0 }

    /// Counts `hooks` in (`sign` 1) or out (`sign` -1).
    func count(_ hooks: [any EvaluationHook], sign: Int) {
        guard !hooks.isEmpty else { return }
        registered.add(sign * hooks.count, ordering: .relaxed)
        let every = hooks.count { !$0.runsForExposuresOnly }
        if every > 0 { everyEvaluation.add(sign * every, ordering: .relaxed) }
    }
}
