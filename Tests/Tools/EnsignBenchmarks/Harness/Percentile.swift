/// Percentiles of a sample, by nearest rank.
enum Percentile {
    static func of(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
    }
}

/// The p50 and p99 of each round of a latency entry; the table's min and median are over
/// the rounds.
struct LatencyRounds {
    private(set) var p50: [Double] = []
    private(set) var p99: [Double] = []

    /// Runs `rounds` rounds (at least one) of `events` events each. `measure` causes one event
    /// and returns its latencies, one per observer that saw it; `afterEachRound` runs between
    /// rounds, for figures measured once a round.
    init(
        rounds: Int, events: Int, measure: () throws -> [Double], afterEachRound: () throws -> Void = {}
    ) rethrows {
        for _ in 0..<max(1, rounds) {
            var latencies: [Double] = []
            for _ in 0..<events { latencies += try measure() }
            p50.append(Percentile.of(latencies, 0.50))
            p99.append(Percentile.of(latencies, 0.99))
            try afterEachRound()
        }
    }
}
