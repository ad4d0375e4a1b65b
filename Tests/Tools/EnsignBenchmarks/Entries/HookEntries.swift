import Ensign
import Synchronization

/// Evaluation hooks on the read path: the typed read with no hook registered, and with hooks,
/// each compared with the plain read in the same run.
enum HookEntries {
    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try HookFixture() }
        let iterations = Iterations(full: 1_000_000, quick: 100_000)
        func entry(
            id: String, name: String, target: Target? = nil, note: String? = nil,
            read: @escaping (HookFixture, Int) -> Void
        ) -> Benchmark {
            Benchmark(
                id: id, name: name, iterations: iterations, reference: id == "plain" ? nil : "plain",
                target: target, note: note
            ) { count in read(try fixture.value, count) }
        }
        return .timed(
            "evaluation hooks",
            [
                entry(id: "plain", name: "AppContext[FlagKey<Bool>], no hook") { fixture, count in
                    let (context, keys) = (fixture.plain, fixture.keys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                entry(id: "no-op hook", name: "the same read with a hook that does nothing") { fixture, count in
                    let (context, keys) = (fixture.hooked, fixture.keys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                entry(
                    id: "exposed", name: "the same read, exposure hook, already exposed",
                    target: .ratio(atMost: 2)
                ) { fixture, count in
                    let (context, keys) = (fixture.exposing, fixture.keys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                entry(
                    id: "first exposure", name: "resetExposures() + the read: a first exposure",
                    target: .time(atMostNanoseconds: 1000)
                ) { fixture, count in
                    let (context, keys) = (fixture.exposing, fixture.keys)
                    for _ in 0..<count {
                        context.resetExposures()
                        blackHole(context[keys[opaqueZero]])
                    }
                },
            ])
    }
}

/// Two contexts on the same 100 flags: one without hooks, one with a hook that does nothing.
final class HookFixture {
    let plain: AppContext
    let hooked: AppContext
    let exposing: AppContext
    let keys: [FlagKey<Bool>]

    init() throws {
        plain = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        hooked = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        hooked.addHook(NothingHook())
        exposing = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        exposing.addHook(ExposureCounter())
        keys = [FlagKey(GeneratedDefinitions.staticKey, default: false)]
        guard plain[keys[0]], hooked[keys[0]] else {
            throw BenchmarkFailure("\(GeneratedDefinitions.staticKey) should read true")
        }
    }
}

/// A hook with every stage left to its default.
struct NothingHook: EvaluationHook {}

/// An exposure hook that counts what it is given.
final class ExposureCounter: EvaluationHook {
    let count = Atomic<Int>(0)
    var runsForExposuresOnly: Bool { true }

    func finally(_ context: inout HookContext, details: ResolutionDetails<JSONValue>, hints: [String: JSONValue]) {
        count.add(1, ordering: .relaxed)
    }
}
