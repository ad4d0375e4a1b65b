/// What the soak app saw, sent to the driver at the end of a run.
struct SoakAppReport: Codable, Sendable {
    /// What one observer or stream saw of its key.
    struct Tally: Codable, Sendable {
        /// Calls of a per-key observer, or values a stream delivered (its first, current value included).
        var deliveries = 0
        /// The last value delivered.
        var last: Int?
        /// Deliveries that moved the key back to an older value of its only writer.
        var backwards = 0

        mutating func record(_ value: Int) {
            if let last, SoakAppReport.isBackwards(from: last, to: value) { backwards += 1 }
            deliveries += 1
            last = value
        }
    }

    /// Per-key observers, by key.
    var observers: [String: Tally] = [:]
    /// Steady `values(for:)` streams, by key.
    var steadyStreams: [String: Tally] = [:]
    /// Churned streams that ended, and the backwards steps any of them delivered.
    var churnedStreamsEnded = 0
    var churnedStreamsBackwards = 0
    /// The observe-all observer's batches and the key changes in them.
    var batches = 0
    var batchedChanges = 0

    /// Whether going from `old` to `new` is a step back: every key has one writer whose values
    /// only grow (written values, a file's rounds), and a reset moves a written value down to
    /// the defined one, which is below every written value.
    static func isBackwards(from old: Int, to new: Int) -> Bool {
        let written = SoakPlan.firstWrittenValue
        return (old >= written) == (new >= written) && new < old
    }
}
