/// Which threads a stress run starts, and so which keys it writes.
///
/// Every written key has one owner, the only thread that writes it, and the owner writes
/// increasing values (1, 2, 3, …). That makes the checks exact without a model of the
/// interleaving: a read of an owned key never goes backwards, an observer never sees it go
/// backwards, the owner reads its own write back at once, and once the threads stop the key
/// holds the owner's last write. Reloads rewrite the definitions cosmetically and change only
/// the reload-owned keys (a deployment file), so any other key a reload changes is a defect.
struct StressScenario: Sendable {
    var name: String
    /// Threads setting root overrides of their keys (`stress.w<i>.k<j>`), directly, through a
    /// prefix scope or in a batch.
    var overrideWriters = 0
    /// Threads setting root overrides, one in three persisted (`stress.p<i>.k<j>`).
    var persistingWriters = 0
    /// Threads setting preferences (`stress.u<i>.k<j>`), saved to the preferences file.
    var preferenceWriters = 0
    /// Child contexts, each with a thread setting its scope overrides (`stress.c<i>.k<j>`).
    var children = 0
    /// A grandchild under each child, with a thread setting its scope overrides (`stress.g<i>.k<j>`).
    var grandchildren = false
    /// Threads reading every key through every context, scope and snapshot.
    var readers = 0
    /// A thread feeding the fleet layer (`stress.f.k<j>`).
    var fleet = false
    /// A thread rewriting the files and reloading them (owns `stress.r.k<j>`).
    var reloads = false
    /// A thread switching the evaluation context between two countries (decides `stress.t`).
    var evaluationContexts = false
    /// A thread adding observers, reading and cancelling them.
    var observerChurn = false
    /// Keys each writing thread owns.
    var keysPerOwner = 3

    /// Parent writes, child reads and child overrides: the three threads of the lock-order
    /// deadlock between a child's snapshot and its scope-override commit, with grandchildren.
    /// Two root writers, because the thread that delivers notifications delivers every round
    /// queued while it does, and then writes seldom: the other one keeps the root moving.
    static let children = StressScenario(
        name: "children", overrideWriters: 2, children: 2, grandchildren: true, readers: 2)

    /// Reloads racing writes of every root layer (overrides plain and persisted, preferences,
    /// fleet), with observers writing from their callbacks; no children.
    static let reloads = StressScenario(
        name: "reloads", overrideWriters: 2, persistingWriters: 1, preferenceWriters: 1, readers: 1, fleet: true,
        reloads: true)

    /// Everything at once.
    static let mixed = StressScenario(
        name: "mixed", overrideWriters: 2, persistingWriters: 1, preferenceWriters: 1, children: 2,
        grandchildren: true, readers: 2, fleet: true, reloads: true, evaluationContexts: true, observerChurn: true)

    static let all = [children, reloads, mixed]

    /// The key classes, by owner prefix: `stress.w0`, `stress.c1`, …
    var overridePrefixes: [String] { (0..<overrideWriters).map { "stress.w\($0)" } }
    var persistingPrefixes: [String] { (0..<persistingWriters).map { "stress.p\($0)" } }
    var preferencePrefixes: [String] { (0..<preferenceWriters).map { "stress.u\($0)" } }
    var childPrefixes: [String] { (0..<children).map { "stress.c\($0)" } }
    var grandchildPrefixes: [String] { grandchildren ? (0..<children).map { "stress.g\($0)" } : [] }
    var fleetPrefixes: [String] { fleet ? ["stress.f"] : [] }
    var reloadPrefixes: [String] { reloads ? ["stress.r"] : [] }
    /// Written from an observer's callback, on every change of `stress.w0.k0`.
    var echoPrefixes: [String] { overrideWriters > 0 ? ["stress.e"] : [] }

    /// Every owned flag key (preferences apart), in a stable order.
    var flagKeys: [String] {
        let prefixes =
            overridePrefixes + persistingPrefixes + childPrefixes + grandchildPrefixes + fleetPrefixes
            + reloadPrefixes + echoPrefixes
        return prefixes.flatMap(keys(under:))
    }

    var preferenceKeys: [String] { preferencePrefixes.flatMap(keys(under:)) }

    func keys(under prefix: String) -> [String] {
        (0..<keysPerOwner).map { "\(prefix).k\($0)" }
    }

    /// The targeted flag: 1 for FR and BE, 0 elsewhere.
    static let targetedKey = "stress.t"
    /// A key the environment overlay sets, so the overlay is never empty.
    static let environmentKey = "stress.environment"
}
