import EnsignSupport
import Synchronization

/// The observers of one context, by key: registering is O(1), and a change to key K looks up
/// K's observers only, so the cost of a notification does not depend on how many observers
/// watch other keys.
///
/// Everything an observer registers lives in its one entry (an async sequence's "finish when
/// the context ends" included), so removing the entry frees all of it: a program that starts
/// and ends observers forever holds only the ones still running.
final class ObserverRegistry: Sendable {
    /// Called with the key, its entry as of the round's commit, and the round's transaction
    /// (0 when it was not logged).
    typealias KeyHandler = @Sendable (_ key: String, _ entry: ResolvedEntry, _ transaction: UInt64) -> Void
    typealias BatchHandler = @Sendable (_ batch: ChangeBatch) -> Void

    struct KeyObserver: Sendable {
        var label: String
        var liveness: ObserverLiveness
        var handler: KeyHandler
        /// Runs if the context goes away while the observer is registered (ends an async
        /// sequence, closes a mailbox).
        var onContextEnd: (@Sendable () -> Void)?
        /// Whether the handler only queues the value for an actor, which logs the real run
        /// when it happens (so the delivering thread does not log the queueing as a run).
        var logsOwnRuns = false
    }

    struct BatchObserver: Sendable {
        var label: String
        var keys: Set<String>?
        var prefix: String?
        /// Only the flags of this flag set, by the definitions of the round delivered.
        var flagSet: String?
        var liveness: ObserverLiveness
        var handler: BatchHandler
        /// Runs if the context goes away while the observer is registered.
        var onContextEnd: (@Sendable () -> Void)?
        /// As ``KeyObserver/logsOwnRuns``.
        var logsOwnRuns = false
    }

    private struct State {
        var byKey: [String: [UInt64: KeyObserver]] = [:]
        var batch: [UInt64: BatchObserver] = [:]
        var nextIdentifier: UInt64 = 1
    }

    private let state = LockedState(State())

    func add(
        key: String, label: String?, liveness: ObserverLiveness, onContextEnd: (@Sendable () -> Void)? = nil,
        logsOwnRuns: Bool = false, handler: @escaping KeyHandler
    ) -> UInt64 {
        state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.byKey[key, default: [:]][identifier] = KeyObserver(
                label: label ?? "observer #\(identifier)", liveness: liveness, handler: handler,
                onContextEnd: onContextEnd, logsOwnRuns: logsOwnRuns)
            return identifier
        }
    }

    func addBatch(
        keys: Set<String>?, prefix: String?, flagSet: String? = nil, label: String?, liveness: ObserverLiveness,
        onContextEnd: (@Sendable () -> Void)? = nil, logsOwnRuns: Bool = false, handler: @escaping BatchHandler
    ) -> UInt64 {
        state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.batch[identifier] = BatchObserver(
                label: label ?? "observer #\(identifier)", keys: keys, prefix: prefix, flagSet: flagSet,
                liveness: liveness,
                handler: handler, onContextEnd: onContextEnd, logsOwnRuns: logsOwnRuns)
            return identifier
        }
    }

    func remove(_ identifier: UInt64, key: String?, liveness: ObserverLiveness) {
        liveness.isActive.store(false, ordering: .releasing)
        // The handler is released after the lock: it may hold the last reference to a
        // context, whose teardown would otherwise re-enter this lock.
        let removed: Any? = state.withLock { state -> Any? in
            guard let key else { return state.batch.removeValue(forKey: identifier) }
            let observer = state.byKey[key]?.removeValue(forKey: identifier)
            if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
            return observer
        }
        _ = removed
    }

    /// The observers to run for `changedKeys`, in registration order per key.
    func observers(for changedKeys: [String]) -> (keyed: [(String, KeyObserver)], batch: [BatchObserver]) {
        state.withLock { state in
            var keyed: [(String, KeyObserver)] = []
            for key in changedKeys {
                guard let observers = state.byKey[key] else { continue }
                for identifier in observers.keys.sorted() { keyed.append((key, observers[identifier]!)) }
            }
            let changed = Set(changedKeys)
            let batch = state.batch.keys.sorted().compactMap { identifier -> BatchObserver? in
                let observer = state.batch[identifier]!
                if let keys = observer.keys, keys.isDisjoint(with: changed) { return nil }
                if let prefix = observer.prefix, !changedKeys.contains(where: { $0.hasPrefix(prefix) }) { return nil }
                return observer
            }
            return (keyed, batch)
        }
    }

    /// Runs the end handlers of the observers still registered; called when the context is released.
    func contextDidEnd() {
        let handlers = state.withLock { state in
            state.byKey.values.flatMap { $0.values.compactMap(\.onContextEnd) }
                + state.batch.values.compactMap(\.onContextEnd)
        }
        for handler in handlers { handler() }
    }

    var isEmpty: Bool { state.withLock { $0.byKey.isEmpty && $0.batch.isEmpty } }

    /// How many observers are registered, and how many of them have an end handler (for tests).
    var counts: (observers: Int, endHandlers: Int) {
        state.withLock { state in
            let keyed = state.byKey.values.flatMap(\.values)
            let ending = keyed.count { $0.onContextEnd != nil } + state.batch.values.count { $0.onContextEnd != nil }
            return (keyed.count + state.batch.count, ending)
        }
    }
}

/// Whether an observer is still registered; checked just before each call, so an observer
/// cancelled while a round is being delivered is not called again.
final class ObserverLiveness: Sendable {
    let isActive = Atomic<Bool>(true)
}
