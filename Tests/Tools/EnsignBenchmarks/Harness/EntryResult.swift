/// The unit of an entry's samples.
enum MeasurementUnit: String {
    /// Nanoseconds per operation.
    case nanosecondsPerOperation = "ns/op"
    /// Bytes (resident memory).
    case bytes
    /// A count (threads).
    case count
}

/// The figures of one entry, as reported.
struct EntryResult {
    var group: String
    var id: String
    var name: String
    var unit: MeasurementUnit
    /// Operations per round (1 for memory).
    var iterations: Int
    /// One figure per round, in `unit`.
    var samples: [Double]
    var allocationsPerOperation: Double?
    var reference: String?
    var target: Target?
    var note: String?
    /// The minimum divided by the reference's minimum; set once the whole group has run.
    var ratio: Double?
    /// The median divided by the reference's median (reported alongside, in JSON).
    var medianRatio: Double?

    var minimum: Double? { samples.min() }

    var median: Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    var verdict: Verdict? {
        guard let target else { return nil }
        let figure: Double? =
            switch target.measure {
            case .ratio: ratio
            case .nanoseconds, .bytes, .count: minimum
            }
        return target.verdict(figure: figure, allocationsPerOperation: allocationsPerOperation)
    }

    /// Fills in `ratio` for every entry of `results` that names a reference among them.
    static func resolvingRatios(_ results: [EntryResult]) -> [EntryResult] {
        results.map { result in
            var result = result
            guard let id = result.reference,
                let reference = results.first(where: { $0.group == result.group && $0.id == id })
            else { return result }
            if let minimum = result.minimum, let base = reference.minimum, base > 0 { result.ratio = minimum / base }
            if let median = result.median, let base = reference.median, base > 0 { result.medianRatio = median / base }
            return result
        }
    }
}

extension EntryResult {
    /// The p50 and p99 entries of a latency measured `events` times a round (`id p50` and
    /// `id p99`, named `name, p50` and `name, p99`), one figure per round each: `note` says
    /// what the p50 measures, and `target` is the p99's.
    static func latencyPercentiles(
        group: String, id: String, name: String, events: Int, p50: [Double], p99: [Double], target: Target? = nil,
        note: String
    ) -> [EntryResult] {
        [
            EntryResult(
                group: group, id: id + " p50", name: name + ", p50", unit: .nanosecondsPerOperation,
                iterations: events, samples: p50, note: note),
            EntryResult(
                group: group, id: id + " p99", name: name + ", p99", unit: .nanosecondsPerOperation,
                iterations: events, samples: p99, target: target, note: "p99 of the same"),
        ]
    }

    /// An entry of a process's wall time, one figure per round: its note is `missing` when
    /// there is no figure (the executable was not found), else `measured`.
    static func processWallTime(
        group: String, id: String, name: String, samples: [Double], reference: String? = nil, target: Target? = nil,
        missing: String, measured: String
    ) -> EntryResult {
        EntryResult(
            group: group, id: id, name: name, unit: .nanosecondsPerOperation, iterations: 1, samples: samples,
            reference: reference, target: target, note: samples.isEmpty ? missing : measured)
    }
}
