import Ensign
import EnsignTelemetry
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
                    note: "a hook that counts; resetting the tree's exposures is part of the figure"
                ) { fixture, count in
                    let (context, keys) = (fixture.exposing, fixture.keys)
                    for _ in 0..<count {
                        context.resetExposures()
                        blackHole(context[keys[opaqueZero]])
                    }
                },
                entry(
                    id: "telemetry exposed", name: "FeatureFlagTelemetry (exposures), already exposed",
                    target: .ratio(atMost: 2)
                ) { fixture, count in
                    let (context, keys) = (fixture.telemetryUp, fixture.keys)
                    for _ in 0..<count { blackHole(context[keys[opaqueZero]]) }
                },
                entry(
                    id: "telemetry first", name: "FeatureFlagTelemetry, a first exposure (receiver up)",
                    target: .time(atMostNanoseconds: 1000),
                    note: "resetExposures() + the read: the event is queued, the export happens on another thread"
                ) { fixture, count in
                    let (context, keys) = (fixture.telemetryUp, fixture.keys)
                    for _ in 0..<count {
                        context.resetExposures()
                        blackHole(context[keys[opaqueZero]])
                    }
                },
                entry(
                    id: "telemetry first, down", name: "the same with the receiver down",
                    note: "an OTLP exporter to a port nobody listens on: reads cost the same; the queue drops, counted"
                ) { fixture, count in
                    let (context, keys) = (fixture.telemetryDown, fixture.keys)
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
    /// With ``FeatureFlagTelemetry`` in exposure mode, exporting to an exporter that takes
    /// everything at once, and to an OTLP receiver that is down.
    let telemetryUp: AppContext
    let telemetryDown: AppContext
    let keys: [FlagKey<Bool>]

    init() throws {
        plain = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        hooked = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        hooked.addHook(NothingHook())
        exposing = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        exposing.addHook(ExposureCounter())
        telemetryUp = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        telemetryUp.addHook(FeatureFlagTelemetry(exporter: TakingExporter()))
        telemetryDown = try AppContext(definitions: GeneratedDefinitions.hundredFlags(), environment: "production")
        let down = try OTLPHTTPExporter(
            endpoint: "http://127.0.0.1:\(try LoopbackPort.free())", serviceName: "bench", timeout: .seconds(1))
        telemetryDown.addHook(FeatureFlagTelemetry(exporter: down))
        keys = [FlagKey(GeneratedDefinitions.staticKey, default: false)]
        guard plain[keys[0]], hooked[keys[0]] else {
            throw BenchmarkFailure("\(GeneratedDefinitions.staticKey) should read true")
        }
    }
}

/// An exporter that takes every batch at once.
struct TakingExporter: TelemetryExporter {
    func export(_ events: [TelemetryEvent]) -> TelemetryExportResult { .exported }
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
