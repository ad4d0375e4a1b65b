import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts evaluations by key, variant and reason, and when each key was last evaluated: what
/// ``AppContext/countEvaluations()`` turns on and ``AppContext/evaluationCounts`` reads.
///
/// Sharded by thread: a read takes the lock of its thread's shard, which other readers rarely
/// hold, so readers on several cores do not queue on one lock (a snapshot takes each shard's
/// lock in turn and adds them up). Within a shard a key's outcomes are a short array searched
/// in order: a flag has a few variants and reasons, and comparing a string that is equal costs
/// less than hashing it again.
///
/// Names are bounded by the definitions: an evaluation of a key no definition has
/// (`FLAG_NOT_FOUND`) is counted in one total, not by its name, so no caller (an OFREP client
/// asking for made-up keys) can make the table grow. Variants come from the definitions and
/// reasons are a closed set.
package final class EvaluationCounter: Sendable {
    /// A power of two, so a thread's shard is the top bits of a hash.
    private static let shardBits = 4
    private let shards: [LockedState<Shard>]
    /// When counting began.
    let startedAt: WallClockTime

    private struct Shard {
        var keys: [String: Tally] = [:]
        var undefinedKeyEvaluations = 0
    }

    /// One key's counts in one shard.
    private struct Tally {
        var outcomes: [(outcome: AppContext.EvaluationCounts.Outcome, count: Int)]
        var lastEvaluated: Double

        mutating func add(_ outcome: AppContext.EvaluationCounts.Outcome, at time: Double) {
            lastEvaluated = max(lastEvaluated, time)
            for index in outcomes.indices where outcomes[index].outcome == outcome {
                outcomes[index].count += 1
                return
            }
            outcomes.append((outcome, 1))
        }
    }

    init() {
        shards = (0..<(1 << Self.shardBits)).map { _ in LockedState(Shard()) }
        startedAt = WallClockTime(secondsSince1970: Self.coarseNow())  // the clock the counts use
    }

    /// Counts one evaluation, with the details the read returned.
    package func record(_ details: ResolutionDetails<JSONValue>) {
        record(key: details.key, variant: details.variant, reason: details.reason, errorCode: details.errorCode)
    }

    /// Counts `details` and returns them.
    func counted<Value>(_ details: ResolutionDetails<Value>) -> ResolutionDetails<Value> {
        record(key: details.key, variant: details.variant, reason: details.reason, errorCode: details.errorCode)
        return details
    }

    func record(key: String, variant: String?, reason: ResolutionReason, errorCode: ResolutionErrorCode?) {
        let now = Self.coarseNow()
        let shard = shards[Self.shardIndex()]
        shard.withLock { shard in
            guard errorCode != .flagNotFound else {
                shard.undefinedKeyEvaluations += 1
                return
            }
            let outcome = AppContext.EvaluationCounts.Outcome(variant: variant, reason: reason)
            // Found and changed in place: one hash of the key, no copy of its tally.
            if let index = shard.keys.index(forKey: key) {
                shard.keys.values[index].add(outcome, at: now)
            } else {
                shard.keys[key] = Tally(outcomes: [(outcome, 1)], lastEvaluated: now)
            }
        }
    }

    /// Everything counted so far, every shard added up.
    package var counts: AppContext.EvaluationCounts {
        var result = AppContext.EvaluationCounts(keys: [:], undefinedKeyEvaluations: 0, since: startedAt)
        for shard in shards {
            shard.withLock { shard in
                result.undefinedKeyEvaluations += shard.undefinedKeyEvaluations
                for (key, tally) in shard.keys {
                    result.keys[key, default: .init()].add(tally.outcomes, lastEvaluated: tally.lastEvaluated)
                }
            }
        }
        return result
    }

    /// The keys evaluated at least once (by name; undefined keys are not named).
    var evaluatedKeys: Set<String> {
        var keys: Set<String> = []
        for shard in shards { shard.withLock { keys.formUnion($0.keys.keys) } }
        return keys
    }

    /// The calling thread's shard: its identity mixed (Fibonacci hashing), since thread
    /// identities are aligned addresses whose low bits are all alike.
    @inline(__always)
    private static func shardIndex() -> Int {
        Int(truncatingIfNeeded: (UInt64(ThreadIdentity.current) &* 0x9E37_79B9_7F4A_7C15) >> (64 - UInt64(shardBits)))
    }

    /// The wall clock, coarse where the system has a cheap coarse clock (a few milliseconds of
    /// resolution is plenty for "last evaluated", and it is read on every counted evaluation).
    private static func coarseNow() -> Double {
        var spec = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        #else
            clock_gettime(CLOCK_REALTIME, &spec)
        #endif
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// The hook ``AppContext/countEvaluations()`` registers on the root: its `finally` stage sees
/// every read through hooks, whatever the other hooks did, with the details the read returns.
struct EvaluationCountingHook: EvaluationHook {
    let counter: EvaluationCounter

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        counter.record(details)
    }
}
