import Ensign
import Foundation

/// The checks at the end of a soak, and the figures it prints.
///
/// The promises checked: every change the driver caused reached each observer of the key
/// exactly once, and nothing else did (no reload moved a value nobody wrote); the app's
/// values and a restarted app's values are the model's; streams never stepped back; memory,
/// descriptors and threads stayed flat after warm-up.
struct SoakVerdict {
    var problems: [String] = []
    var summary: [String] = []

    /// Resident memory may grow this much (or 10%) after warm-up: glibc's per-thread arenas
    /// keep pages they freed (a `malloc_trim` at the end shows how many), while a leak of a
    /// few hundred bytes per change passes it within minutes.
    static let allowedResidentGrowth = 4 * 1_048_576
    /// The heap in use is exact, so its bound is tighter.
    static let allowedHeapGrowth = 512 * 1024
    /// Descriptors and threads may exceed their warm-up maximum by this many (visiting
    /// clients come and go between samples).
    static let allowedExtraDescriptors = 4
    static let allowedExtraThreads = 4

    init(
        model: SoakModel, figures: SoakFigures, loadFailures: [String], report: SoakAppReport,
        liveValues: [String: JSONValue], restartedValues: [String: Int], samples: [ProcessSample],
        appStatus: Int32, seconds: Int
    ) {
        problems += loadFailures
        if appStatus != 0 { problems.append("the app exited with status \(appStatus)") }
        checkValues(model: model, live: liveValues, restarted: restartedValues)
        let received = checkObservers(model: model, report: report)
        checkStreams(model: model, report: report)
        if report.batchedChanges != model.changes {
            problems.append(
                "the observe-all observer saw \(report.batchedChanges) changes, the driver made \(model.changes)")
        }
        let watched = checkChangeStream(model: model, figures: figures)
        summary.append(
            "soak: \(model.writes) control writes (\(model.persistedWrites) persisted), \(model.resets) resets, "
                + "\(model.rewrites) file rewrites (\(figures.truncatedRewrites) truncated first); "
                + "\(model.changes) changes")
        summary.append(
            "soak: notifications: \(received) received of \(model.changes) expected by 500 observers; "
                + "observe-all \(report.batchedChanges) in \(report.batches) batches; server change stream "
                + "\(watched) (\(figures.watchDropped) dropped); \(report.churnedStreamsEnded) churned streams ended")
        summary.append(Self.roundTripLine(figures))
        checkResources(samples, seconds: seconds)
        summary += problems.prefix(20).map { "soak: FAILED: \($0)" }
        summary.append(problems.isEmpty ? "soak: passed" : "soak: \(problems.count) problems")
    }

    private mutating func checkValues(model: SoakModel, live: [String: JSONValue], restarted: [String: Int]) {
        let wrong = SoakPlan.allKeys.filter { live[$0] != .int(model.value(of: $0)) }
        for key in wrong.prefix(5) {
            problems.append(
                "\(key) reads \(live[key]?.jsonText ?? "nothing"), the latest write was \(model.value(of: key))")
        }
        let lost = SoakPlan.allKeys.filter { restarted[$0] != model.restartedValue(of: $0) }
        for key in lost.prefix(5) {
            problems.append(
                "after a restart \(key) reads \(restarted[key].map(String.init) ?? "nothing"), "
                    + "the overrides file should give \(model.restartedValue(of: key))")
        }
    }

    /// Compares each observer's deliveries with the changes the driver made; returns the total received.
    private mutating func checkObservers(model: SoakModel, report: SoakAppReport) -> Int {
        var received = 0
        for key in SoakPlan.observedKeys {
            let tally = report.observers[key] ?? .init()
            let expected = model.expectedDeliveries[key] ?? 0
            received += tally.deliveries
            if tally.deliveries != expected {
                problems.append("the observer of \(key) ran \(tally.deliveries) times for \(expected) changes")
            }
            if expected > 0, tally.last != model.value(of: key) {
                problems.append(
                    "the observer of \(key) last saw \(tally.last ?? -1), the key is \(model.value(of: key))")
            }
            if tally.backwards > 0 { problems.append("the observer of \(key) saw \(tally.backwards) steps back") }
        }
        return received
    }

    private mutating func checkStreams(model: SoakModel, report: SoakAppReport) {
        for key in SoakPlan.steadyStreamKeys {
            let tally = report.steadyStreams[key] ?? .init()
            if tally.last != model.value(of: key) {
                problems.append("the stream of \(key) ended on \(tally.last ?? -1), the key is \(model.value(of: key))")
            }
            if tally.backwards > 0 { problems.append("the stream of \(key) stepped back \(tally.backwards) times") }
        }
        if report.churnedStreamsEnded == 0 { problems.append("no churned stream ended") }
        if report.churnedStreamsBackwards > 0 {
            problems.append("churned streams stepped back \(report.churnedStreamsBackwards) times")
        }
    }

    /// The server's change stream, when it dropped nothing, carried each change once.
    private mutating func checkChangeStream(model: SoakModel, figures: SoakFigures) -> Int {
        let total = figures.watchedChanges.values.reduce(0, +)
        guard figures.watchDropped == 0 else { return total }
        let keys = Set(figures.watchedChanges.keys).union(model.expectedDeliveries.keys)
        let differing = keys.sorted().filter { figures.watchedChanges[$0] != model.expectedDeliveries[$0] }
        for key in differing.prefix(5) {
            problems.append(
                "the change stream carried \(figures.watchedChanges[key] ?? 0) changes of \(key), "
                    + "the driver made \(model.expectedDeliveries[key] ?? 0)")
        }
        return total
    }

    /// Memory, descriptors and threads after warm-up (the first fifth of the run, at least
    /// 20 s) against the warm-up's.
    private mutating func checkResources(_ samples: [ProcessSample], seconds: Int) {
        let warmUp = Duration.seconds(max(20, seconds / 5))
        let early = samples.filter { $0.elapsed <= warmUp }
        let late = samples.filter { $0.elapsed > warmUp }
        guard !early.isEmpty, late.count >= 2 else {
            return summary.append("soak: too short to judge memory after warm-up (\(samples.count) samples)")
        }
        let resident = Self.growth(late.map(\.residentBytes), allowed: Self.allowedResidentGrowth)
        var line =
            "soak: after warm-up resident \(megabytes(resident.first)) → \(megabytes(resident.last))"
        if resident.last - resident.first > resident.allowed {
            problems.append("resident memory grew from \(megabytes(resident.first)) to \(megabytes(resident.last))")
        }
        let heaps = late.compactMap(\.heapBytes)
        if heaps.count == late.count {
            let heap = Self.growth(heaps, allowed: Self.allowedHeapGrowth)
            line += ", heap \(megabytes(heap.first)) → \(megabytes(heap.last))"
            if heap.last - heap.first > heap.allowed {
                problems.append("the heap grew from \(megabytes(heap.first)) to \(megabytes(heap.last))")
            }
        }
        summary.append(
            line + " (allowed: \(megabytes(Self.allowedResidentGrowth)) and \(megabytes(Self.allowedHeapGrowth)), "
                + "or 10%); descriptors "
                + "\(Self.range(samples.map(\.descriptors))), threads \(Self.range(samples.map(\.threads)))")
        let earlyDescriptors = early.map(\.descriptors).max()!
        if let most = late.map(\.descriptors).max(), most > earlyDescriptors + Self.allowedExtraDescriptors {
            problems.append("descriptors grew from \(earlyDescriptors) to \(most) after warm-up")
        }
        let earlyThreads = early.map(\.threads).max()!
        if let most = late.map(\.threads).max(), most > earlyThreads + Self.allowedExtraThreads {
            problems.append("threads grew from \(earlyThreads) to \(most) after warm-up")
        }
    }

    static func roundTripLine(_ figures: SoakFigures) -> String {
        let sorted = figures.roundTrips.sorted()
        guard !sorted.isEmpty else { return "soak: no control round trips" }
        func milliseconds(_ fraction: Double) -> String {
            String(
                format: "%.2f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))].seconds * 1000)
        }
        return "soak: control round trips p50 \(milliseconds(0.5)), p99 \(milliseconds(0.99)), "
            + "max \(milliseconds(1)); \(figures.visits) visiting clients"
    }

    /// The median of the first and of the last third of `values`, and the growth allowed between them.
    static func growth(_ values: [Int], allowed: Int) -> (first: Int, last: Int, allowed: Int) {
        let third = max(1, values.count / 3)
        let first = median(Array(values.prefix(third)))
        return (first, median(Array(values.suffix(third))), max(allowed, first / 10))
    }

    static func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }

    static func range(_ values: [Int]) -> String {
        guard let low = values.min(), let high = values.max() else { return "none" }
        return low == high ? "\(low)" : "\(low)–\(high)"
    }
}
