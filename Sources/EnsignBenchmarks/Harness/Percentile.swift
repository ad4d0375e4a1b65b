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

    /// Adds one round's latencies.
    mutating func record(_ latencies: [Double]) {
        p50.append(Percentile.of(latencies, 0.50))
        p99.append(Percentile.of(latencies, 0.99))
    }
}
