/// What an entry must achieve (the floor) and what it aims for, from DESIGN.md's
/// performance table.
struct Target {
    /// Which figure the target bounds. Targets are checked against minimums over the rounds:
    /// on a shared machine other load only ever adds time, so the minimum is the figure least
    /// disturbed by it (medians are reported alongside).
    enum Measure: String {
        /// The minimum divided by the reference's minimum.
        case ratio
        /// The minimum time per operation, in nanoseconds.
        case nanoseconds
        /// The smallest size measured, in bytes.
        case bytes
        /// The smallest count measured (threads).
        case count
    }

    var measure: Measure
    /// The floor: at most this much.
    var limit: Double
    /// The aim: at most this much (optional).
    var aim: Double?
    /// At most this many allocations per operation (checked when counting works).
    var maximumAllocationsPerOperation: Double?

    static func ratio(atMost limit: Double, aim: Double? = nil, allocationsAtMost allocations: Double? = nil) -> Target
    {
        Target(measure: .ratio, limit: limit, aim: aim, maximumAllocationsPerOperation: allocations)
    }

    static func time(atMostNanoseconds limit: Double, aim: Double? = nil) -> Target {
        Target(measure: .nanoseconds, limit: limit, aim: aim, maximumAllocationsPerOperation: nil)
    }

    static func memory(atMostBytes limit: Double, aim: Double? = nil) -> Target {
        Target(measure: .bytes, limit: limit, aim: aim, maximumAllocationsPerOperation: nil)
    }

    static func count(atMost limit: Double, aim: Double? = nil) -> Target {
        Target(measure: .count, limit: limit, aim: aim, maximumAllocationsPerOperation: nil)
    }

    /// The target as the table shows it: `≤1.5× (aim ≤0.5×), 0 allocs`.
    var summary: String {
        var text = "≤" + format(limit)
        if let aim { text += " (aim ≤" + format(aim) + ")" }
        if let allocations = maximumAllocationsPerOperation {
            text += ", " + (allocations == 0 ? "0" : Figures.decimal(allocations, digits: 1)) + " allocs"
        }
        return text
    }

    private func format(_ value: Double) -> String {
        switch measure {
        case .ratio: return Figures.ratio(value)
        case .nanoseconds: return Figures.time(nanoseconds: value)
        case .bytes: return Figures.bytes(value)
        case .count: return Figures.decimal(value, digits: 0)
        }
    }

    /// The verdict for a measured figure and its allocations per operation.
    func verdict(figure: Double?, allocationsPerOperation: Double?) -> Verdict {
        guard let figure else { return .unmeasured }
        var met = figure <= limit
        if let maximum = maximumAllocationsPerOperation, let allocations = allocationsPerOperation {
            met = met && allocations <= maximum
        }
        guard met else { return .miss }
        return .pass(aimMet: aim.map { figure <= $0 } ?? false)
    }
}

/// Whether an entry met its target.
enum Verdict: Equatable {
    case pass(aimMet: Bool)
    case miss
    /// The figure the target needs could not be measured (no reference, or unsupported platform).
    case unmeasured

    var label: String {
        switch self {
        case .pass(let aimMet): return aimMet ? "PASS (aim met)" : "PASS"
        case .miss: return "MISS"
        case .unmeasured: return "n/a"
        }
    }
}
