/// Where an observer's handler runs, for the overloads that take a `@MainActor` handler.
///
/// ```swift
/// let token = context.observe(.showPendingList, on: .mainActor) { isShown in
///     banner.isHidden = !isShown  // a @MainActor view model
/// }
/// ```
///
/// To run a handler on an actor of your own (or on a serial executor, through an actor whose
/// `unownedExecutor` is that executor), use the overloads that take `isolatedTo:`. Without
/// either, a handler runs synchronously on the thread that committed the change.
public enum ObserverIsolation: Sendable, Hashable {
    /// The main actor: each change is queued, in commit order, and delivered by one job at a
    /// time on the main actor (the main dispatch queue on Linux).
    case mainActor
}
