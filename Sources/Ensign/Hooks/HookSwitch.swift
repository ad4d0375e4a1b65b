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

    init() {}

    /// Whether a read must run hooks.
    @inlinable
    var isOn: Bool { registered.load(ordering: .relaxed) != 0 }
}
