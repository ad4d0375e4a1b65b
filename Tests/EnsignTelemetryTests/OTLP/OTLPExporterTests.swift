import Ensign
import EnsignTelemetry
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// The OTLP/HTTP exporter against a receiver that decodes with OpenTelemetry's own
/// `opentelemetry-proto`, and the events checked against the semantic conventions' registry in
/// the shared conformance data (`otel-feature-flags`), read in place.
@Suite("OTLP/HTTP export, decoded by opentelemetry-proto", .serialized)
struct OTLPExporterTests {
    static let definitions = """
        version: 1
        metadata: { flagSetId: checkout, version: "7" }
        flags:
          checkout.newFlow:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [{ in: [{ var: country }, [FR, BE]] }, "on", null] }
          checkout.pageSize: { type: int, default: 20 }
          checkout.ratio: { type: double, default: 0.25 }
          support.token: { type: string, default: "tok-5ecr3t-value", secret: true }
          support.endpoint:
            variants: { primary: "https://internal-5ecr3t.example", backup: "https://b.example" }
            defaultVariant: primary
            secret: true
        """
    static let secretValues = ["tok-5ecr3t-value", "internal-5ecr3t"]

    /// The shared data: the event's attributes, the registry's reasons, the deprecated names.
    struct Conventions {
        let eventAttributes: Set<String>
        let reasons: Set<String>
        let deprecated: Set<String>

        static func load() throws -> Conventions {
            let directory = TelemetryConformance.directory
            func text(_ name: String) throws -> String {
                try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            }
            let events = try text("model_feature-flags_events.yaml")
            let registry = try text("model_feature-flags_registry.yaml")
            let deprecated = try text("model_feature-flags_deprecated_registry-deprecated.yaml")
            let refs = Set(events.matches(of: #/- ref: ([a-z_.]+)/#).map { String($0.output.1) })
            let reasonBlock = registry.split(separator: "- id: feature_flag.result.reason")[1]
                .split(separator: "- id: feature_flag.result.value")[0]
            let reasons = Set(reasonBlock.matches(of: #/value: "([a-z_]+)"/#).map { String($0.output.1) })
            let old = Set(deprecated.matches(of: #/- id: (feature_flag\.[a-z_.]+)/#).map { String($0.output.1) })
            return Conventions(eventAttributes: refs, reasons: reasons, deprecated: old)
        }
    }

    @Test("Every event decodes strictly, names only the registry's attributes, and carries no secret value")
    func eventsDecodeAndFollowTheRegistry() throws {
        let conventions = try Conventions.load()
        #expect(conventions.eventAttributes.contains("feature_flag.result.variant"), "the registry was read")
        #expect(conventions.eventAttributes.count == 10)
        #expect(conventions.reasons.contains("targeting_match"))
        #expect(conventions.deprecated.contains("feature_flag.variant"))
        let receiver = try OTLPReceiver()
        let exporter = try OTLPHTTPExporter(
            endpoint: receiver.endpoint, serviceName: "bank-app", headers: ["X-Team": "payments"])
        let telemetry = FeatureFlagTelemetry(exporter: exporter, recording: .everyEvaluation)
        let context = try AppContext(definitions: Self.definitions, environment: "test")
        context.setEvaluationContext(EvaluationContext(targetingKey: "user-1", attributes: ["country": "FR"]))
        context.addHook(telemetry)
        #expect(context[FlagKey("checkout.newFlow", default: false)])
        #expect(context[FlagKey("checkout.pageSize", default: 0)] == 20)
        #expect(context[FlagKey("checkout.ratio", default: 0.0)] == 0.25)
        #expect(context[FlagKey("support.token", default: "")] == "tok-5ecr3t-value")
        #expect(context.value(forKeyNamed: "support.endpoint") == "https://internal-5ecr3t.example")
        #expect(context[FlagKey("checkout.pageSize", default: false)] == false)  // TYPE_MISMATCH
        #expect(context.value(forKeyNamed: "checkout.missing") == nil)  // FLAG_NOT_FOUND
        context.track("checkout.completed", value: 42.5, attributes: ["currency": "EUR"])
        #expect(telemetry.flush(timeout: .seconds(60)))

        let requests = try receiver.requests()
        #expect(!requests.isEmpty)
        for request in requests {
            #expect(request.error == nil, "opentelemetry-proto refused the body: \(request.error ?? "")")
            #expect(request.path == "/v1/logs")
            #expect(request.contentType == "application/json")
            for secret in Self.secretValues { #expect(!request.raw.contains(secret), "a secret value was exported") }
        }
        let records = requests.flatMap(\.records)
        #expect(records.count == 8)
        #expect(telemetry.statistics == .init(recorded: 8, exported: 8, dropped: 0, failed: 0, pending: 0))
        let evaluations = records.filter { $0["eventName"] as? String == "feature_flag.evaluation" }
        #expect(evaluations.count == 7)
        var byKey: [String: [String: String]] = [:]
        for record in evaluations {
            let attributes = record["attributes"] as? [String: [String: Any]] ?? [:]
            let names = Set(attributes.keys)
            #expect(
                names.isSubset(of: conventions.eventAttributes),
                "not in the registry: \(names.subtracting(conventions.eventAttributes))")
            #expect(names.isDisjoint(with: conventions.deprecated))
            #expect(names.contains("feature_flag.key"))
            let flat = attributes.mapValues { value in value.values.first.map { "\($0)" } ?? "" }
            let reason = flat["feature_flag.result.reason"] ?? ""
            #expect(conventions.reasons.contains(reason), "reason '\(reason)' is not one of the registry's")
            #expect(flat["feature_flag.provider.name"] == "Ensign")
            #expect(flat["feature_flag.context.id"] == "user-1")
            #expect(record["scope"] as? String == "Ensign")
            let resource = record["resource"] as? [String: [String: Any]] ?? [:]
            #expect(resource["service.name"]?["stringValue"] as? String == "bank-app")
            byKey[flat["feature_flag.key"] ?? "", default: [:]].merge(flat) { _, new in new }
            if flat["error.type"] == nil { byKey[flat["feature_flag.key"] ?? ""]?["clean"] = "yes" }
        }
        let flow = try #require(byKey["checkout.newFlow"])
        #expect(flow["feature_flag.result.variant"] == "on")
        #expect(flow["feature_flag.result.value"] == nil, "the variant stands for the value")
        #expect(flow["feature_flag.result.reason"] == "targeting_match")
        #expect(flow["feature_flag.set.id"] == "checkout")
        #expect(flow["feature_flag.version"] == "7")
        #expect(byKey["checkout.ratio"]?["feature_flag.result.value"] == "0.25")
        #expect(byKey["support.token"]?["feature_flag.result.value"] == nil)
        #expect(byKey["support.endpoint"]?["feature_flag.result.variant"] == "primary")
        let mismatch = try #require(byKey["checkout.pageSize"])
        #expect(mismatch["error.type"] == "type_mismatch")
        #expect(mismatch["feature_flag.error.message"]?.isEmpty == false)
        #expect(byKey["checkout.missing"]?["error.type"] == "flag_not_found")
        #expect(byKey["checkout.missing"]?["feature_flag.result.reason"] == "error")

        let tracked = try #require(records.first { $0["eventName"] as? String == "checkout.completed" })
        let attributes = tracked["attributes"] as? [String: [String: Any]] ?? [:]
        #expect(attributes["currency"]?["stringValue"] as? String == "EUR")
        #expect(attributes["ensign.tracking.value"]?["doubleValue"] as? Double == 42.5)
        #expect(attributes["feature_flag.context.id"]?["stringValue"] as? String == "user-1")
        #expect(attributes["ensign.context.country"]?["stringValue"] as? String == "FR")
    }

    @Test("A receiver that answers 503 at first gets the events once it takes them")
    func retriesUntilAccepted() throws {
        let receiver = try OTLPReceiver(failures: 2)
        var options = FeatureFlagTelemetry.Options()
        options.initialRetryPause = .milliseconds(1)
        let telemetry = FeatureFlagTelemetry(
            exporter: try OTLPHTTPExporter(endpoint: receiver.endpoint, serviceName: "retry"), options: options)
        for index in 0..<30 { telemetry.track(AppContext.TrackingEvent(name: "tick", value: Double(index))) }
        #expect(telemetry.flush(timeout: .seconds(60)))
        #expect(telemetry.statistics == .init(recorded: 30, exported: 30, dropped: 0, failed: 0, pending: 0))
        let values = try receiver.requests().flatMap(\.records).compactMap {
            (($0["attributes"] as? [String: [String: Any]])?["ensign.tracking.value"]?["doubleValue"] as? Double)
        }
        #expect(values.sorted() == (0..<30).map(Double.init), "each event arrived once")
    }

    @Test("With the receiver down every event is accounted for: exported, dropped or failed, exactly")
    func receiverDown() throws {
        let port = try Loopback.freePort()
        var options = FeatureFlagTelemetry.Options()
        options.queueCapacity = 50
        options.batchSize = 10
        options.maximumAttempts = 2
        options.initialRetryPause = .milliseconds(1)
        let telemetry = FeatureFlagTelemetry(
            exporter: try OTLPHTTPExporter(
                endpoint: "http://127.0.0.1:\(port)", serviceName: "down", timeout: .seconds(5)),
            options: options)
        for index in 0..<500 { telemetry.track(AppContext.TrackingEvent(name: "tick", value: Double(index))) }
        #expect(telemetry.flush(timeout: .seconds(120)))
        let statistics = telemetry.statistics
        #expect(statistics.recorded == 500)
        #expect(statistics.exported == 0)
        #expect(statistics.pending == 0)
        #expect(statistics.dropped + statistics.failed == 500)
    }

    @Test("Over TLS with a certificate the test makes: exported with its CA, refused without it")
    func tls() throws {
        let files = try TemporaryDirectory()
        let authority = try TestCertificateAuthority(in: files)
        let receiver = try OTLPReceiver(certificate: try authority.issue())
        var options = FeatureFlagTelemetry.Options()
        options.maximumAttempts = 2
        options.initialRetryPause = .milliseconds(1)
        let trusted = FeatureFlagTelemetry(
            exporter: try OTLPHTTPExporter(
                endpoint: receiver.endpoint, serviceName: "tls", certificateAuthorities: authority.certificate),
            options: options)
        for index in 0..<5 { trusted.track(AppContext.TrackingEvent(name: "tick", value: Double(index))) }
        #expect(trusted.flush(timeout: .seconds(60)))
        #expect(trusted.statistics == .init(recorded: 5, exported: 5))
        #expect(try receiver.requests().flatMap(\.records).count == 5)
        // The system's authorities do not know the test's CA: the handshake fails, nothing arrives.
        let untrusting = FeatureFlagTelemetry(
            exporter: try OTLPHTTPExporter(endpoint: receiver.endpoint, serviceName: "tls"), options: options)
        for index in 0..<5 { untrusting.track(AppContext.TrackingEvent(name: "tick", value: Double(index))) }
        #expect(untrusting.flush(timeout: .seconds(60)))
        #expect(untrusting.statistics == .init(recorded: 5, failed: 5))
        #expect(try receiver.requests().flatMap(\.records).count == 5)
    }

    @Test("Configuration errors say what to change")
    func configurationErrors() {
        #expect(throws: OTLPHTTPExporter.ConfigurationError.self) {
            try OTLPHTTPExporter(endpoint: "collector:4318", serviceName: "x")
        }
        #expect(throws: OTLPHTTPExporter.ConfigurationError.self) {
            try OTLPHTTPExporter(endpoint: "http://127.0.0.1:4318", serviceName: "x", headers: ["X": "a\nb"])
        }
        do {
            _ = try OTLPHTTPExporter(
                endpoint: "https://127.0.0.1:4318", serviceName: "x", certificate: "/nonexistent/cert.pem")
            Issue.record("a certificate without its key was accepted")
        } catch {
            #expect(error.description.contains("key"))
        }
    }
}

/// Where the OpenTelemetry conventions are: `ENSIGN_CONFORMANCE_DIR`, or `../shared/conformance`
/// beside the package.
enum TelemetryConformance {
    static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["ENSIGN_CONFORMANCE_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path).appendingPathComponent("otel-feature-flags")
        }
        return BuiltExecutable.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/conformance/otel-feature-flags")
    }()
}
