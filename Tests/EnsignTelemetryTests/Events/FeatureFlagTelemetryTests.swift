import Dispatch
import Ensign
import EnsignTelemetry
import EnsignTestSupport
import Synchronization
import Testing

/// An exporter that keeps what it is given, and can be held shut to fill the queue.
final class MemoryExporter: TelemetryExporter {
    let batches = Recorder<[TelemetryEvent]>()
    private let gate = Mutex(false)
    private let held: Bool

    init(held: Bool = false) { self.held = held }

    func open() { gate.withLock { $0 = true } }

    func export(_ events: [TelemetryEvent]) -> TelemetryExportResult {
        // A held exporter asks to retry until opened: its batch stays in flight meanwhile.
        if held, !gate.withLock({ $0 }) { return .retry(after: .milliseconds(1), reason: "held") }
        batches.record(events)
        return .exported
    }

    var events: [TelemetryEvent] { batches.values.flatMap { $0 } }
}

@Suite("The telemetry hook: exposures, recent evaluations, the queue")
struct FeatureFlagTelemetryTests {
    static let definitions = """
        version: 1
        flags:
          checkout.newFlow:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [{ in: [{ var: country }, [FR, BE]] }, "on", null] }
          checkout.pageSize: { type: int, default: 20 }
          support.token: { type: string, default: "tok", secret: true }
        """
    static let newFlow = FlagKey("checkout.newFlow", default: false)
    static let pageSize = FlagKey("checkout.pageSize", default: 0)

    @Test("In exposure mode a SwiftUI-like loop of reads sends one event per result")
    func exposures() throws {
        let exporter = MemoryExporter()
        let telemetry = FeatureFlagTelemetry(exporter: exporter, recording: .exposures)
        let context = try AppContext(definitions: Self.definitions, environment: "test")
        context.addHook(telemetry)
        for _ in 0..<1_000 {
            _ = context[Self.newFlow]
            _ = context[Self.pageSize]
        }
        for user in ["a", "b"] {
            let request = context.makeChild(
                label: "request",
                evaluationContext: EvaluationContext(targetingKey: user, attributes: ["country": "FR"]))
            for _ in 0..<10 { #expect(request[Self.newFlow]) }
        }
        #expect(telemetry.flush(timeout: .seconds(30)))
        let events = exporter.events
        #expect(events.count == 4)
        #expect(Set(events.map(\.name)) == ["feature_flag.evaluation"])
        let results = events.map {
            "\($0.attributes["feature_flag.key"]?.stringValue ?? "")="
                + "\($0.attributes["feature_flag.result.variant"]?.stringValue ?? $0.attributes["feature_flag.result.value"]?.jsonText ?? "")"
                + "@\($0.attributes["feature_flag.context.id"]?.stringValue ?? "-")"
        }
        #expect(
            results.sorted() == [
                "checkout.newFlow=off@-", "checkout.newFlow=on@a", "checkout.newFlow=on@b", "checkout.pageSize=20@-",
            ])
        #expect(telemetry.statistics == .init(recorded: 4, exported: 4))
    }

    @Test("recentEvaluations keeps the last distinct evaluations, newest first, without secret values")
    func recentEvaluations() throws {
        var options = FeatureFlagTelemetry.Options()
        options.recentEvaluationLimit = 3
        let telemetry = FeatureFlagTelemetry(exporter: MemoryExporter(), recording: .everyEvaluation, options: options)
        let context = try AppContext(definitions: Self.definitions, environment: "test")
        context.addHook(telemetry)
        _ = context[Self.newFlow]
        _ = context[Self.pageSize]
        _ = context[FlagKey("support.token", default: "")]
        _ = context[Self.newFlow]  // again: moves to the front, not a second entry
        try context.setOverride(Self.pageSize, to: 50)
        _ = context[Self.pageSize]
        let recent = telemetry.recentEvaluations
        #expect(recent.map(\.key) == ["checkout.pageSize", "checkout.newFlow", "support.token"])
        #expect(recent[0].value == 50)
        #expect(recent[0].description == "checkout.pageSize = 50 (OVERRIDE)")
        #expect(recent[1].description == "checkout.newFlow = off (DEFAULT)")
        #expect(recent[2].value == nil, "a secret's value is not kept")
        #expect(recent[2].description == "support.token = (secret) (STATIC)")
    }

    @Test("A full queue drops new events and counts each: recorded = exported + dropped, exactly")
    func dropsAreExact() throws {
        var options = FeatureFlagTelemetry.Options()
        options.queueCapacity = 10
        options.batchSize = 4
        options.maximumAttempts = 1_000_000
        options.initialRetryPause = .milliseconds(1)
        options.maximumRetryPause = .milliseconds(1)
        let exporter = MemoryExporter(held: true)
        let telemetry = FeatureFlagTelemetry(exporter: exporter, options: options)
        for index in 0..<100 { telemetry.track(AppContext.TrackingEvent(name: "tick", value: Double(index))) }
        let held = telemetry.statistics
        #expect(held.recorded == 100)
        #expect(held.exported == 0)
        // At most one batch in flight beside a full queue: everything else was dropped.
        #expect(held.pending >= 10 && held.pending <= 14)
        #expect(held.dropped == 100 - held.pending)
        exporter.open()
        #expect(telemetry.flush(timeout: .seconds(30)))
        let done = telemetry.statistics
        #expect(done.exported == held.pending)
        #expect(done.exported + done.dropped == 100)
        #expect(done.failed == 0 && done.pending == 0)
        #expect(exporter.events.count == done.exported)
    }

    @Test("Reads racing a slow exporter never wait for it, and every event is accounted for")
    func readsNeverWait() throws {
        var options = FeatureFlagTelemetry.Options()
        options.queueCapacity = 64
        let exporter = MemoryExporter(held: true)
        let telemetry = FeatureFlagTelemetry(exporter: exporter, recording: .everyEvaluation, options: options)
        let context = try AppContext(definitions: Self.definitions, environment: "test")
        context.addHook(telemetry)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { #expect(context[Self.pageSize] == 20) }
        }
        exporter.open()
        #expect(telemetry.flush(timeout: .seconds(30)))
        let statistics = telemetry.statistics
        #expect(statistics.recorded == 8_000)
        #expect(statistics.exported + statistics.dropped == 8_000)
        #expect(exporter.events.count == statistics.exported)
    }
}
