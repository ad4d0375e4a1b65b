import Ensign
import EnsignSupport

/// Which context of the tree a write went to (and so where it is read back).
enum ContextPath: Hashable, Sendable, CustomStringConvertible {
    case root
    case child(Int)
    case grandchild(Int)

    var description: String {
        switch self {
        case .root: return "root"
        case .child(let index): return "child\(index)"
        case .grandchild(let index): return "grandchild\(index)"
        }
    }

    /// A name short enough for a thread name: `child0`, `gchild0`.
    var shortName: String {
        if case .grandchild(let index) = self { return "gchild\(index)" }
        return description
    }
}

/// A write that returned: the key now holds `value` in the context at `path`, until its
/// owner writes again.
struct Acknowledged: Hashable, Sendable {
    var path: ContextPath
    var key: String
    var value: Int
}

/// A promise of the core that a stress run checks (SEMANTICS.md, "Concurrency").
enum Promise: String, CaseIterable, Sendable {
    case readsNeverGoBack = "a read never returns less than an earlier read of the same context by the same thread"
    case readYourWrite = "a write is readable at once by the thread that made it"
    case notifiedInOrder = "an observer is told each change once, in commit order (never a value at or below the last)"
    case transactionsMoveForward = "a transaction never moves an owned key backwards"
    case reloadChangesOnlyWhatItRead = "a reload changes only the keys its files set"
    case lastWriteWins = "once the writers stop, every key reads its last acknowledged write"
    case reloadKeepsWrites = "a reload after the writers stop changes no written key"
    case observerSawLastValue = "an observer was last told the key's final value"
    case runWorks = "the run's own operations work (valid writes accepted, good files reload)"
}

/// The broken promises a run found, from any thread: how often each was broken, and the
/// first few cases of each.
final class StressLedger: Sendable {
    private let found = LockedState<[Promise: (count: Int, examples: [String])]>([:])
    static let examplesKept = 4

    func broken(_ promise: Promise, _ example: String) {
        found.withLock { found in
            var entry = found[promise] ?? (0, [])
            entry.count += 1
            if entry.examples.count < Self.examplesKept { entry.examples.append(example) }
            found[promise] = entry
        }
    }

    /// One line per broken promise: `N× promise: example | example …`, and how many in all.
    var report: (lines: [String], total: Int) {
        let found = found.withLock { $0 }
        let lines = Promise.allCases.compactMap { promise in
            found[promise].map { "\($0.count)× \(promise.rawValue): " + $0.examples.joined(separator: " | ") }
        }
        return (lines, found.values.map(\.count).reduce(0, +))
    }
}

/// What one per-key observer has been told: each value must be greater than the last.
final class ObservedKey: Sendable {
    /// A key together with the context whose thread writes it.
    struct Owner: Hashable {
        var path: ContextPath
        var key: String
    }

    /// Where the observer is registered.
    let path: ContextPath
    let owner: Owner
    var key: String { owner.key }
    private let ledger: StressLedger
    private let last = LockedState<(value: Int?, calls: Int)>((nil, 0))

    init(path: ContextPath, key: String, writtenAt owner: ContextPath, ledger: StressLedger) {
        self.path = path
        self.owner = Owner(path: owner, key: key)
        self.ledger = ledger
    }

    func told(_ value: Int) {
        let previous = last.withLock { last in
            defer { last = (value, last.calls + 1) }
            return last.value
        }
        if let previous, value <= previous {
            ledger.broken(.notifiedInOrder, "the observer of \(key) in \(path) was told \(value) after \(previous)")
        }
    }

    var lastValue: Int? { last.withLock { $0.value } }
    var calls: Int { last.withLock { $0.calls } }
}

extension JSONValue {
    /// An owned key's value as read: its int, or -1 for anything else (never written).
    var stressValue: Int { intValue ?? -1 }
}
