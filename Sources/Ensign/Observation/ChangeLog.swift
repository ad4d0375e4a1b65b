import EnsignSupport

/// What caused a transaction.
public enum ChangeCause: Sendable, Hashable {
    /// The context was created and its files loaded.
    case load
    /// Files were reloaded; the paths that changed.
    case reload(files: [String])
    /// A reload found problems and changed nothing.
    case failedReload(files: [String])
    /// An override was set or removed, by `actor` (`code`, `cli`, `menu`, …).
    case override(actor: String)
    /// A user preference was set.
    case preference(actor: String)
    /// The evaluation context was replaced.
    case evaluationContext
    /// A child context's own overrides changed; the scope's label.
    case scope(String)
    /// Several changes applied together by `batch`, with the label given.
    case batch(String)
    /// The fleet layer changed, or its source lost or regained its store; the source and
    /// revision: `etcd http://127.0.0.1:2379 rev 42`.
    case fleet(source: String)
}

extension ChangeCause: CustomStringConvertible {
    /// A short phrase: `override by cli`, `reload of flags/app.yaml`, …
    public var description: String {
        switch self {
        case .load: return "load"
        case .reload(let files): return "reload of \(files.joined(separator: ", "))"
        case .failedReload(let files): return "failed reload of \(files.joined(separator: ", "))"
        case .override(let actor): return "override by \(actor)"
        case .preference(let actor): return "preference set by \(actor)"
        case .evaluationContext: return "evaluation context change"
        case .scope(let label): return "scope override in \(label)"
        case .batch(let label): return "batch \(label)"
        case .fleet(let source): return "fleet layer from \(source)"
        }
    }
}

/// A record of one transaction: its cause, what changed, and which observers ran for how long.
package struct ContextTransaction: Sendable, Hashable, Identifiable {
    /// Increases with each transaction of a context tree.
    package var id: UInt64
    /// When it was committed.
    package var time: WallClockTime
    /// What caused it.
    package var cause: ChangeCause
    /// The label of the context it was committed in (`root`, or a child's label).
    package var context: String
    /// The keys whose values changed.
    package var changes: [ChangeBatch.Change]
    /// The observers that ran, in order.
    package var observerRuns: [ObserverRun]
    /// Problems reported with it (a failed reload's diagnostics).
    package var diagnostics: [Diagnostic]
}

extension ContextTransaction {
    /// One observer's run during a transaction's delivery.
    package struct ObserverRun: Sendable, Hashable {
        /// The label given when observing (or `observer #N`).
        package var label: String
        /// The keys it was told about.
        package var keys: [String]
        /// How long it ran.
        package var duration: Duration
        /// Whether it ran longer than the slow-observer threshold.
        package var isSlow: Bool
    }
}

/// A bounded log of recent transactions, newest last; older ones are dropped.
final class ChangeLog: Sendable {
    /// A ring of the last `capacity` transactions: recording is O(1) however full the log is.
    private struct State {
        var ring: [ContextTransaction] = []
        /// Where the oldest transaction is, once the ring is full.
        var oldest = 0
        var nextIdentifier: UInt64 = 1
    }

    let capacity: Int
    let slowObserverThreshold: Duration
    private let state = LockedState(State())

    init(capacity: Int, slowObserverThreshold: Duration) {
        self.capacity = max(1, capacity)
        self.slowObserverThreshold = slowObserverThreshold
    }

    /// Records a transaction and returns its identifier.
    func record(
        cause: ChangeCause, context: String, changes: [ChangeBatch.Change], diagnostics: [Diagnostic] = []
    ) -> UInt64 {
        state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            let transaction = ContextTransaction(
                id: identifier, time: .now(), cause: cause, context: context, changes: changes, observerRuns: [],
                diagnostics: diagnostics)
            if state.ring.count < capacity {
                state.ring.append(transaction)
            } else {
                state.ring[state.oldest] = transaction
                state.oldest = (state.oldest + 1) % capacity
            }
            return identifier
        }
    }

    /// Adds observer runs to a recorded transaction (if it is still in the log).
    func append(_ runs: [ContextTransaction.ObserverRun], to identifier: UInt64) {
        // Identifier 0 marks a round that was not logged.
        guard !runs.isEmpty, identifier != 0 else { return }
        state.withLock { state in
            // Identifiers are consecutive, so the transaction's place follows from the newest one's.
            let newest = state.nextIdentifier - 1
            guard identifier <= newest, newest - identifier < UInt64(state.ring.count) else { return }
            let age = Int(newest - identifier)
            let newestIndex = (state.oldest + state.ring.count - 1) % state.ring.count
            let index = (newestIndex - age + state.ring.count) % state.ring.count
            state.ring[index].observerRuns += runs
        }
    }

    /// A run of `label` for `keys` that took `duration`, flagged slow past the threshold.
    func run(_ label: String, keys: [String], _ duration: Duration) -> ContextTransaction.ObserverRun {
        ContextTransaction.ObserverRun(
            label: label, keys: keys, duration: duration, isSlow: duration > slowObserverThreshold)
    }

    /// The transactions, oldest first.
    var transactions: [ContextTransaction] {
        state.withLock { state in Array(state.ring[state.oldest...] + state.ring[..<state.oldest]) }
    }
}
