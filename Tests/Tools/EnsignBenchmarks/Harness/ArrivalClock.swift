import Dispatch
import Ensign
import EnsignSupport

/// Records when an observer ran; the measuring thread waits for the next arrival.
final class ArrivalClock: Sendable {
    private let arrivals = DispatchSemaphore(value: 0)
    private let times = LockedTimes()

    func arrive() {
        times.append(ContinuousClock.now)
        arrivals.signal()
    }

    /// Nanoseconds from `start` to the next arrival.
    func wait(since start: ContinuousClock.Instant, timeout: Duration = .seconds(2)) throws -> Double {
        guard arrivals.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds))) == .success,
            let arrival = times.removeFirst()
        else { throw BenchmarkFailure("the observer did not run within \(timeout)") }
        return Double((arrival - start).nanoseconds)
    }
}

/// The arrival times, guarded by a dispatch queue (the benchmarks do not see the library's lock).
private final class LockedTimes: Sendable {
    private let queue = DispatchQueue(label: "ensign.bench.arrivals")
    nonisolated(unsafe) private var times: [ContinuousClock.Instant] = []
    // nonisolated(unsafe), proven: `times` is only read and written inside `queue.sync`.

    func append(_ time: ContinuousClock.Instant) { queue.sync { times.append(time) } }

    func removeFirst() -> ContinuousClock.Instant? {
        queue.sync { times.isEmpty ? nil : times.removeFirst() }
    }
}

/// An app context with an observer of one bool key that records each run on its
/// ``ArrivalClock``, fed by a value provider of its own (its own connection, as a separate app
/// process has): the propagation entries measure up to it.
final class ObservedApp {
    let arrivals = ArrivalClock()
    private let provider: any ValueProvider
    private let token: ObservationToken

    /// Observes `key` (defined `false`) in a new context, attaches `provider`, and waits up to
    /// 10 s for `isReady`; throws `unready` when the provider is not ready by then.
    init(
        key: String, provider: any ValueProvider, isReady: (_ timeout: Duration) -> Bool,
        unready: @autoclosure () -> String
    ) throws {
        let context = try AppContext(definitions: "flags:\n  \(key): { default: false }\n")
        let arrivals = self.arrivals
        token = context.observe(FlagKey(key, default: false), label: "bench") { _ in arrivals.arrive() }
        self.provider = provider
        context.attach(provider)
        guard isReady(.seconds(10)) else {
            provider.stop()
            throw BenchmarkFailure(unready())
        }
    }

    func stop() {
        provider.stop()
        token.cancel()
    }
}

/// The propagation entries' rounds: `toggles` toggles of one bool key each (a third as many
/// rounds as the settings ask for), every toggle timed from just before `write` sends the new
/// value until the observer of each app in `apps` has run.
struct PropagationRounds {
    let toggles: Int
    let latencies: LatencyRounds

    init(_ settings: RunSettings, apps: [ObservedApp], write: (_ value: Bool) throws -> Void) throws {
        let toggles = settings.isQuick ? 30 : 120
        var value = false
        latencies = try LatencyRounds(rounds: settings.rounds / 3, events: toggles) {
            value.toggle()  // every write is a change, so every write notifies
            let sent = ContinuousClock.now
            try write(value)
            return try apps.map { try $0.arrivals.wait(since: sent, timeout: .seconds(5)) }
        }
        self.toggles = toggles
    }
}
