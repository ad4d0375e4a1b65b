import Observation

/// Runs `read` under `withObservationTracking` and counts the calls of its `onChange`: 0 while
/// nothing `read` depends on has changed, then 1 (tracking fires once).
///
/// ```swift
/// let fired = trackedChanges { _ = context[.pageSize] }
/// try context.setOverride(.pageSize, to: 30)
/// #expect(fired.count == 1)
/// ```
public func trackedChanges(of read: () -> Void) -> AtomicCounter {
    let fired = AtomicCounter()
    withObservationTracking(read) { fired.increment() }
    return fired
}
