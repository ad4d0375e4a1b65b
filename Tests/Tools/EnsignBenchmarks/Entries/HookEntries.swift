import Ensign
import EnsignTelemetry
import Synchronization

/// Evaluation hooks on the read path: the typed read with no hook registered, and with hooks,
/// each compared with the plain read in the same run.
enum HookEntries {
    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try HookFixture() }
        let iterations = Iterations(full: 1_000_000, quick: 100_000)
        /// An entry reading the typed key from `context` in a loop; with `resetting`, the
        /// tree's exposures are forgotten before each read, so every read is a first exposure.
        func entry(
            id: String, name: String, target: Target? = nil, note: String? = nil,
            _ context: KeyPath<HookFixture, AppContext>, resetting: Bool = false
        ) -> Benchmark {
            Benchmark(
                id: id, name: name, iterations: iterations, reference: id == "plain" ? nil : "plain",
                target: target, note: note
            ) { count in
                let fixture = try fixture.value
                let (context, keys) = (fixture[keyPath: context], fixture.keys)
                for _ in 0..<count {
                    if resetting { context.resetExposures() }
                    blackHole(context[keys[opaqueZero]])
                }
            }
        }
        return .timed(
            "evaluation hooks",
            [
                entry(id: "plain", name: "AppContext[FlagKey<Bool>], no hook", \.plain),
                entry(id: "no-op hook", name: "the same read with a hook that does nothing", \.hooked),
                entry(
                    id: "exposed", name: "the same read, exposure hook, already exposed", target: .ratio(atMost: 2),
                    \.exposing),
                entry(
                    id: "first exposure", name: "resetExposures() + the read: a first exposure",
                    note: "a hook that counts; resetting the tree's exposures is part of the figure", \.exposing,
                    resetting: true),
                entry(
                    id: "telemetry exposed", name: "FeatureFlagTelemetry (exposures), already exposed",
                    target: .ratio(atMost: 2), \.telemetryUp),
                entry(
                    id: "telemetry first", name: "FeatureFlagTelemetry, a first exposure (receiver up)",
                    target: .time(atMostNanoseconds: 1000),
                    note: "resetExposures() + the read: the event is queued, the export happens on another thread",
                    \.telemetryUp, resetting: true),
                entry(
                    id: "telemetry first, down", name: "the same with the receiver down",
                    note: "an OTLP exporter to a port nobody listens on: reads cost the same; the queue drops, counted",
                    \.telemetryDown, resetting: true),
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
