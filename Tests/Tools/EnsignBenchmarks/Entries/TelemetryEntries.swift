import Ensign
import EnsignTelemetry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The OTLP exporter's throughput: events offered as fast as the queue takes them (never more,
/// so none is dropped), to nginx answering `/v1/logs` as an OTLP receiver would; the time per
/// exported event, resident memory over the run, and the counts checked to add up.
enum TelemetryEntries {
    static let names = ["export throughput", "export memory growth"]
    private static let groupName = "telemetry export (OTLP/HTTP)"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: names, run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        guard let nginx = NginxReference.executable else {
            return results(
                perEvent: [], growth: [], note: "nginx is not installed; scripts/setup --with-test-tools installs it")
        }
        let receiver = try NginxReference(executable: nginx, body: Array("{}".utf8), entityTag: "\"e\"")
        defer { receiver.stop() }
        let exporter = try OTLPHTTPExporter(endpoint: "http://127.0.0.1:\(receiver.port)", serviceName: "bench")
        let events = settings.isQuick ? 30_000 : 300_000
        var perEvent: [Double] = []
        var growth: [Double] = []
        for _ in 0..<max(1, settings.rounds / 2) {
            let telemetry = FeatureFlagTelemetry(exporter: exporter)
            let event = AppContext.TrackingEvent(
                name: "checkout.completed", value: 42.5, attributes: ["currency": "EUR", "items": 3])
            let start = ContinuousClock.now
            var memoryAtThird = 0
            for index in 0..<events {
                // Offer only what the queue can take: the figure is the exporter's pace, not drops.
                while telemetry.statistics.pending >= 9_000 { sched_yield() }
                telemetry.track(event)
                if index == events / 3 { memoryAtThird = try MemoryEntries.residentBytes() }
            }
            guard telemetry.flush(timeout: .seconds(120)) else { throw BenchmarkFailure("the export did not finish") }
            let elapsed = ContinuousClock.now - start
            let statistics = telemetry.statistics
            guard statistics.exported == events, statistics.recorded == events,
                statistics.dropped + statistics.failed + statistics.pending == 0
            else {
                throw BenchmarkFailure("the counts do not add up: \(statistics) for \(events) events")
            }
            perEvent.append(
                Double(elapsed.components.seconds) * 1e9 / Double(events)
                    + Double(elapsed.components.attoseconds) / 1e9 / Double(events))
            growth.append(Double(try MemoryEntries.residentBytes() - memoryAtThird))
        }
        return results(
            perEvent: perEvent, growth: growth,
            note: "\(events) tracked events, batches of 512, to nginx's return 200 on loopback; growth: resident"
                + " bytes from a third of the way to the end")
    }

    private static func results(perEvent: [Double], growth: [Double], note: String) -> [EntryResult] {
        [
            EntryResult(
                group: groupName, id: "export throughput", name: "time per exported event",
                unit: .nanosecondsPerOperation, iterations: 1, samples: perEvent,
                target: .time(atMostNanoseconds: 10_000), note: note + " (≤ 10 µs: 100,000 events/s)"),
            EntryResult(
                group: groupName, id: "export memory growth", name: "resident growth while exporting",
                unit: .bytes, iterations: 1, samples: growth, target: .memory(atMostBytes: 8 * 1024 * 1024),
                note: "flat: the queue is bounded"),
        ]
    }
}
