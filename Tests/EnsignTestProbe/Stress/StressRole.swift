import Ensign
import EnsignTestSupport

/// One thread's part in a stress run: its name (in heartbeats and stacks) and its loop,
/// which runs until the deadline and returns the writes it had acknowledged last.
struct StressRole: Sendable {
    let name: String
    let body: @Sendable (_ random: inout SplitMix64, _ progress: Progress) -> [Acknowledged]
}

/// The keys one writer owns and the value it wrote last to each (0: not written yet).
struct OwnedKeys {
    let names: [String]
    private(set) var values: [Int]

    init(_ names: [String]) {
        self.names = names
        values = Array(repeating: 0, count: names.count)
    }

    var count: Int { names.count }

    /// The next value of key `index`, counted as written (call it just before writing).
    mutating func next(_ index: Int) -> Int {
        values[index] += 1
        return values[index]
    }

    /// The last write of each key written, made at `path`.
    func acknowledged(at path: ContextPath) -> [Acknowledged] {
        zip(names, values).filter { $0.1 > 0 }.map { Acknowledged(path: path, key: $0.0, value: $0.1) }
    }
}

extension StressRig {
    /// Runs `body` until `deadline`, counting each round as one operation.
    func repeatUntil(_ deadline: ContinuousClock.Instant, _ progress: Progress, _ body: () -> Void) {
        while ContinuousClock.now < deadline {
            body()
            progress.step()
        }
    }

    /// Checks that `key` reads `value` in the context at `path` right after `what` wrote it.
    func expectReadBack(_ key: String, _ value: Int, at path: ContextPath, after what: String) {
        let read = context(path).value(forKeyNamed: key)?.stressValue ?? -1
        if read != value {
            ledger.broken(.readYourWrite, "\(what) set \(key) to \(value) in \(path), then it read \(read)")
        }
    }

    /// Records a write the context refused: every stress write is valid.
    func refused(_ key: String, _ error: some Error) {
        ledger.broken(.runWorks, "a write of \(key) was refused: \(error)")
    }
}
