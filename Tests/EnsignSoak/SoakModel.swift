/// The driver's record of every change it caused, and so of what every key must read.
///
/// Each key has one writer (see ``SoakPlan``), so this model is exact: the value in force is
/// the latest acknowledged override, else the value of the key's file at its latest round;
/// the overrides file holds the latest persisted write unless a reset came after it (the
/// rules in the Preferences article).
struct SoakModel: Sendable {
    private(set) var overrides: [String: Int] = [:]
    private(set) var persisted: [String: Int] = [:]
    private(set) var rounds = Array(repeating: 0, count: SoakPlan.fileCount)
    /// Per key: how many times its value changed, which is how often its observer must run.
    private(set) var expectedDeliveries: [String: Int] = [:]
    private(set) var changes = 0
    private(set) var writes = 0
    private(set) var persistedWrites = 0
    private(set) var resets = 0
    private(set) var rewrites = 0
    private var lastWrittenValue = SoakPlan.firstWrittenValue - 1

    /// The file and index of a key named `soak<file>.k<index>`.
    static func location(of key: String) -> (file: Int, index: Int) {
        let parts = key.split(separator: ".")
        return (Int(parts[0].dropFirst(4))!, Int(parts[1].dropFirst())!)
    }

    /// What `key` reads now.
    func value(of key: String) -> Int {
        overrides[key] ?? baseValue(of: key)
    }

    /// What `key` reads after a restart from the files on disk.
    func restartedValue(of key: String) -> Int {
        persisted[key] ?? baseValue(of: key)
    }

    private func baseValue(of key: String) -> Int {
        let (file, index) = Self.location(of: key)
        return SoakPlan.baseValue(index: index, round: rounds[file])
    }

    /// A value never written before, above every defined one.
    mutating func takeNextValue() -> Int {
        lastWrittenValue += 1
        return lastWrittenValue
    }

    /// Records an acknowledged `set` (always a change: the value is new).
    mutating func applySet(_ key: String, to value: Int, persist: Bool) {
        overrides[key] = value
        if persist {
            persisted[key] = value
            persistedWrites += 1
        }
        writes += 1
        recordChange(of: key)
    }

    /// Records an acknowledged `reset`: a change when the key had an override.
    mutating func applyReset(_ key: String) {
        resets += 1
        persisted[key] = nil
        if overrides.removeValue(forKey: key) != nil { recordChange(of: key) }
    }

    /// Records a rewrite of definitions file `file` at its next round: every file key in it changes.
    mutating func applyRewrite(file: Int) {
        rounds[file] += 1
        rewrites += 1
        for index in SoakPlan.fileKeys { recordChange(of: SoakPlan.key(file: file, index: index)) }
    }

    /// Records a rewrite that changes no value (the overlay's).
    mutating func applyCosmeticRewrite() {
        rewrites += 1
    }

    private mutating func recordChange(of key: String) {
        expectedDeliveries[key, default: 0] += 1
        changes += 1
    }
}
