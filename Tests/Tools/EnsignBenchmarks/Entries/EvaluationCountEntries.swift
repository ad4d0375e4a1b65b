import Ensign

/// A typed read with evaluation counting on (``AppContext/countEvaluations()``), against the
/// same read with it off and the same read through a hook that does nothing: what counting
/// costs, and how much of that is the hooked read path rather than the count.
enum EvaluationCountEntries {
    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try EvaluationCountFixture() }
        let iterations = Iterations(full: 500_000, quick: 50_000)
        func entry(
            _ id: String, _ name: String, reference: String? = "counting off", note: String? = nil,
            context: @escaping (EvaluationCountFixture) -> AppContext
        ) -> Benchmark {
            Benchmark(id: id, name: name, iterations: iterations, reference: reference, note: note) { count in
                let fixture = try fixture.value
                let (context, keys) = (context(fixture), fixture.typedKeys)
                for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
            }
        }
        return .timed(
            "counted read",
            [
                entry("counting off", "AppContext[FlagKey<Bool>], counting off", reference: nil) { $0.plain },
                entry(
                    "empty hook", "the same read through a hook that does nothing",
                    note: "the hooked read path alone: hook context, run, details"
                ) { $0.hooked },
                entry(
                    "counting on", "the same read with countEvaluations()",
                    note: "one reading thread; the counter is sharded by thread"
                ) { $0.counted },
            ])
    }
}

/// Three contexts over the same 100 flags: plain, with a no-op hook, and counting.
final class EvaluationCountFixture {
    let plain: AppContext
    let hooked: AppContext
    let counted: AppContext
    /// One element: the typed key, as app code declares it.
    let typedKeys = [FlagKey(GeneratedDefinitions.staticKey, default: false)]

    init() throws {
        let make = { try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production") }
        (plain, hooked, counted) = (try make(), try make(), try make())
        hooked.addHook(NoOpHook())
        counted.countEvaluations()
        guard plain[typedKeys[0]], hooked[typedKeys[0]], counted[typedKeys[0]],
            counted.evaluationCounts?[GeneratedDefinitions.staticKey]?.evaluations == 1
        else { throw BenchmarkFailure("\(GeneratedDefinitions.staticKey) should read true and be counted once") }
    }
}

/// A hook with no stage of its own.
private struct NoOpHook: EvaluationHook {}
