/// What the watchdog knows of a stress process from its heartbeat: the `beat MS name=count …`
/// lines it prints five times a second, one field per thread (`name=done` once finished,
/// `name=waiting` while it is not expected to move).
///
/// A thread is stalled when its count has not moved for `stallLimit` while it is not done;
/// when the beats themselves stop, every unfinished thread is. A process that never beats is
/// stalled after `startupLimit`, which allows for a slow start (a loaded machine, the thread
/// sanitizer) without letting a hang in start-up go unnoticed.
struct HeartbeatMonitor {
    let stallLimit: Duration
    var startupLimit: Duration = .seconds(60)
    private var threads: [String: (count: Int, since: ContinuousClock.Instant)] = [:]
    private var finished: Set<String> = []
    private var beats = 0
    private var lastBeat: ContinuousClock.Instant

    init(stallLimit: Duration, startedAt start: ContinuousClock.Instant) {
        self.stallLimit = stallLimit
        lastBeat = start
    }

    /// Takes in the process's output so far, read at `now`.
    mutating func observe(output: String, at now: ContinuousClock.Instant) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true).filter { $0.hasPrefix("beat ") }
        guard lines.count > beats, let latest = lines.last else { return }
        beats = lines.count
        lastBeat = now
        for field in latest.split(separator: " ").dropFirst(2) {
            guard let equals = field.firstIndex(of: "=") else { continue }
            let name = String(field[..<equals])
            let value = field[field.index(after: equals)...]
            if value == "done" {
                finished.insert(name)
            } else if let count = Int(value), threads[name]?.count != count {
                threads[name] = (count, now)
            }
        }
    }

    /// The threads that made no progress, by name, once one of them has made none for the
    /// stall limit (empty until then): that one and every other unfinished thread that has
    /// made none for half the limit, since threads caught in one deadlock stop at slightly
    /// different times.
    func stalledThreads(at now: ContinuousClock.Instant) -> [String] {
        if beats == 0 {
            return now - lastBeat >= max(stallLimit, startupLimit) ? ["heartbeat (no beat within \(startupLimit))"] : []
        }
        if now - lastBeat >= stallLimit {
            let waiting = threads.keys.filter { !finished.contains($0) }.sorted()
            return ["heartbeat (no beat for \(stallLimit))"] + waiting
        }
        let unfinished = threads.filter { !finished.contains($0.key) }
        guard unfinished.values.contains(where: { now - $0.since >= stallLimit }) else { return [] }
        return unfinished.filter { now - $0.value.since >= stallLimit / 2 }
            .map { "\($0.key) (stuck at \($0.value.count) operations)" }.sorted()
    }

    /// How many heartbeat lines have arrived.
    var beatCount: Int { beats }
}
