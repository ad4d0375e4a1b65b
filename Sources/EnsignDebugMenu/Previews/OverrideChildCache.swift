import Ensign

/// Keeps the child context a subtree's overrides live in, for `EnsignSwiftUI`'s
/// `.appContextOverrides(label:_:)`: made and configured once for a parent, and made again
/// only when the parent is another context.
///
/// A UI framework evaluates a modifier's body many times; making a child each time would
/// lose the child's state and its observers' registrations. The logic lives here, outside
/// SwiftUI, so it is tested on every platform.
///
/// ```swift
/// @MainActor func previewContext(_ parent: AppContext, cache: OverrideChildCache) -> AppContext {
///     cache.child(of: parent, label: "preview") { try $0.setOverride(.showPendingList, to: true) }
/// }
/// ```
@MainActor
public final class OverrideChildCache {
    private var parent: AppContext?
    private var child: AppContext?

    /// Why the last configuration failed (the override the child refused), if it did.
    public private(set) var lastProblem: String?

    /// Creates an empty cache.
    public init() {}

    /// The child of `parent` with `configure`'s overrides: the same child for the same parent.
    ///
    /// An override that `configure` cannot set (a value outside the definition) is left out;
    /// the reason is kept in ``lastProblem`` and printed once, and the child still serves.
    public func child(of parent: AppContext, label: String, configure: (AppContext) throws -> Void) -> AppContext {
        if let child, self.parent === parent { return child }
        let made = parent.makeChild(label: label)
        do {
            try configure(made)
            lastProblem = nil
        } catch {
            let problem = "\(label): \(error)"
            lastProblem = problem
            print("Ensign: the overrides '\(problem)' were not all set")
        }
        self.parent = parent
        child = made
        return made
    }
}
