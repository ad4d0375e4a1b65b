import Foundation

/// The shape of a soak run: which keys exist, who changes each one, and how hard the load is.
///
/// 2,000 int flags in four definitions files (`soak0.yaml` … `soak3.yaml`, namespaces
/// `soak0` … `soak3`, keys `k0` … `k499`) plus the environment overlay `environments/soak.yaml`.
/// Every key has exactly one writer, so the driver's model of its value is exact:
/// - **control keys** (`k0` … `k49` of each file) change only through the control socket
///   (`set`, `set --persist`, `reset`); their definitions never change value, although the
///   files they are in are rewritten under them, so a reload that reverted a write shows;
/// - **file keys** (`k50` … `k124`) change only when their file is rewritten;
/// - the rest never change (some of them take their value from the overlay).
struct SoakPlan: Sendable {
    static let fileCount = 4
    static let keysPerFile = 500
    static let controlKeys = 0..<50
    static let fileKeys = 50..<125
    static let overlayKeys = 125..<150
    static let environment = "soak"

    /// Control writes per second, and the share of them that are persisted or resets.
    var writesPerSecond = 300
    var persistedShare = 0.01
    var resetShare = 0.03
    /// A file is rewritten this often; every sixth rewrite truncates first and writes later.
    var rewriteInterval: Duration = .seconds(5)
    var truncatedRewriteEvery = 6
    /// How long a truncated file stays empty: longer than the watcher's debounce, so the app sees it.
    var truncationPause: Duration = .milliseconds(300)
    /// Observers and `values(for:)` streams in the app.
    static let steadyStreamCount = 25
    static let churnedStreamCount = 25
    /// Each churned stream is cancelled and made anew this often.
    static let churnInterval: Duration = .milliseconds(100)

    /// The plan, with the load's rates taken from the environment where set, to isolate one
    /// kind of load when a figure moves: `ENSIGN_SOAK_WRITES_PER_SECOND`,
    /// `ENSIGN_SOAK_PERSISTED_SHARE`, `ENSIGN_SOAK_RESET_SHARE`, `ENSIGN_SOAK_REWRITE_SECONDS`
    /// (`0`: no rewrites).
    static func fromEnvironment() -> SoakPlan {
        var plan = SoakPlan()
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["ENSIGN_SOAK_WRITES_PER_SECOND"].flatMap(Int.init), value > 0 {
            plan.writesPerSecond = value
        }
        if let value = environment["ENSIGN_SOAK_PERSISTED_SHARE"].flatMap(Double.init) { plan.persistedShare = value }
        if let value = environment["ENSIGN_SOAK_RESET_SHARE"].flatMap(Double.init) { plan.resetShare = value }
        if let value = environment["ENSIGN_SOAK_REWRITE_SECONDS"].flatMap(Int.init) {
            plan.rewriteInterval = value > 0 ? .seconds(value) : .seconds(1_000_000)
        }
        return plan
    }

    /// The key `k<index>` of file `file`.
    static func key(file: Int, index: Int) -> String { "soak\(file).k\(index)" }

    /// Every key, in file order.
    static var allKeys: [String] {
        (0..<fileCount).flatMap { file in (0..<keysPerFile).map { key(file: file, index: $0) } }
    }

    /// The keys the control writer changes.
    static var controlKeyNames: [String] {
        (0..<fileCount).flatMap { file in controlKeys.map { key(file: file, index: $0) } }
    }

    /// The keys each per-key observer of the app watches: every key that changes.
    static var observedKeys: [String] {
        (0..<fileCount).flatMap { file in
            (controlKeys.lowerBound..<fileKeys.upperBound).map { key(file: file, index: $0) }
        }
    }

    /// The keys with a steady stream (control keys of file 0) and a churned one (of file 1).
    static var steadyStreamKeys: [String] { (0..<steadyStreamCount).map { key(file: 0, index: $0) } }
    static var churnedStreamKeys: [String] { (0..<churnedStreamCount).map { key(file: 1, index: $0) } }

    /// A definition's value: control and static keys keep theirs; file keys take the file's round.
    static func definedValue(index: Int, round: Int) -> Int {
        fileKeys.contains(index) ? 100_000 + round * 1_000 + index : index
    }

    /// The overlay's value for the keys it sets; it never changes.
    static func overlayValue(index: Int) -> Int { 7_000 + index }

    /// What a key reads when nothing overrides it, given its file's round.
    static func baseValue(index: Int, round: Int) -> Int {
        overlayKeys.contains(index) ? overlayValue(index: index) : definedValue(index: index, round: round)
    }

    /// Values the writer sets start here, above every defined value, and only grow.
    static let firstWrittenValue = 1_000_000
}
