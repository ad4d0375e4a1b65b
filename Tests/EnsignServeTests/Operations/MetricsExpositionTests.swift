import Ensign
import EnsignJSON
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// `ensign serve`'s operations endpoints as a process: `/metrics` read by Prometheus's own
/// Python parser (a reader nobody here wrote) after known traffic, `/healthz` and `/readyz`, the
/// management port, and which of them need the token.
///
/// The Python package is installed when missing, and the tests fail when it cannot be.
@Suite("ensign serve's /metrics, /healthz and /readyz", .serialized)
struct MetricsExpositionTests {
    static let parser = PythonVirtualEnvironment(
        relativeDirectory: ".build/prometheus-client",
        packages: ["prometheus-client==0.26.0"],
        check: """
            import importlib.metadata, sys
            from prometheus_client.parser import text_string_to_metric_families
            sys.exit(0 if importlib.metadata.version("prometheus-client") == "0.26.0" else 3)
            """)

    /// A key with a double quote, a backslash and a line feed: the three characters a label value
    /// escapes, so the parser's reading of its label proves the escaping.
    static let oddKey = "say \"hi\" \\ then\nbreak"
    static let flags = """
        flags:
          banner:
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [{ in: [{ var: country }, [FR, BE]] }, "on", null] }
          color: { default: blue }
          "say \\"hi\\" \\\\ then\\nbreak": { default: 1 }
        """

    /// Parses an exposition with `text_string_to_metric_families` and prints every family, its
    /// samples with their labels and values, as JSON.
    static let program = #"""
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families

        text = open(sys.argv[1], encoding="utf-8").read()
        print(json.dumps([
            {"name": family.name, "type": family.type, "help": family.documentation,
             "samples": [{"name": sample.name, "labels": sample.labels, "value": sample.value}
                         for sample in family.samples]}
            for family in text_string_to_metric_families(text)]))
        """#

    /// An exposition as Prometheus's parser read it.
    struct Exposition {
        struct Sample: Hashable {
            var name: String
            var labels: [String: String]
            var value: Double
        }

        struct Family {
            var type: String
            var help: String
            var samples: [Sample]
        }

        /// By family name, as the parser names them: a counter's without `_total`.
        var families: [String: Family]

        /// The value of the sample `name` with exactly `labels`, if there is one.
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            families.values.lazy.flatMap(\.samples).first { $0.name == name && $0.labels == labels }?.value
        }

        /// Every sample of the family `family`, by its labels.
        func samples(of family: String) -> [[String: String]: Double] {
            Dictionary((families[family]?.samples ?? []).map { ($0.labels, $0.value) }, uniquingKeysWith: +)
        }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `text` with Prometheus's parser; throws with the parser's own error when it refuses it.
    static func parse(_ text: String, in directory: TemporaryDirectory) throws -> Exposition {
        let input = try directory.write("metrics.txt", text)
        let script = try directory.write("parse.py", program)
        let result = try BuiltExecutable.run(executable: parser.python, [script, input], timeout: .seconds(60))
        guard result.status == 0 else {
            throw Failed(description: "prometheus_client refused the exposition: \(result.errors)\n\(text)")
        }
        var families: [String: Exposition.Family] = [:]
        for family in try JSONValue(jsonText: result.output).arrayValue ?? [] {
            let samples = (family["samples"]?.arrayValue ?? []).map { sample in
                Exposition.Sample(
                    name: sample["name"]?.stringValue ?? "",
                    labels: (sample["labels"]?.objectValue ?? [:]).compactMapValues(\.stringValue),
                    value: sample["value"]?.numericValue ?? .nan)
            }
            families[family["name"]?.stringValue ?? ""] = Exposition.Family(
                type: family["type"]?.stringValue ?? "", help: family["help"]?.stringValue ?? "", samples: samples)
        }
        return Exposition(families: families)
    }

    /// Runs `body` with `ensign serve` over ``flags``, whose directory lasts until `body` returns
    /// (the server watches it, and would see it go).
    static func withServer(
        arguments: [String] = [], environment: [String: String] = [:], _ body: (ServeProcess) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        try directory.write("flags/served.yaml", flags)
        let server = try ServeProcess(
            flags: directory.path + "/flags", arguments: arguments, environment: environment)
        try withExtendedLifetime(directory) { try body(server) }
    }

    @Test(
        "After known traffic, Prometheus's parser reads /metrics with every family typed and the counts of what was asked",
        .blocksItsThread)
    func exposition() throws {
        try Self.parser.prepare(for: "The /metrics exposition test")
        try Self.withServer { server in
            let client = try RawHTTPClient(port: UInt16(server.port))
            let single = "/ofrep/v1/evaluate/flags/"
            for _ in 0..<3 {
                let france = try client.request("POST", single + "banner", body: #"{"context":{"country":"FR"}}"#)
                #expect(france.status == 200)
            }
            for _ in 0..<2 {
                #expect(try client.request("POST", single + "banner", body: #"{"context":{}}"#).status == 200)
            }
            #expect(try client.request("POST", single + "color", body: "{}").status == 200)
            let odd = try client.request("POST", single + "say%20%22hi%22%20%5C%20then%0Abreak", body: "{}")
            #expect(odd.status == 200, "\(odd.text)")
            #expect(try client.request("POST", single + "missing", body: "{}").status == 404)
            #expect(try client.request("POST", single + "banner", body: "[not json").status == 400)
            #expect(try client.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context":{}}"#).status == 200)
            let stream = try RawHTTPClient(port: UInt16(server.port))
            try stream.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
            let opened = try stream.readStream(timeout: .seconds(30)) { $0.contains(": connected") }
            #expect(opened.status == 200 && opened.isDone)

            // The connection gauges follow the table, which libmicrohttpd's callbacks move on its own
            // threads; so scrape until they show the stream and the scrape itself.
            var exposition: Exposition?
            var scrapes = 0
            let settled = try waitUntil("/metrics to show one stream and one busy connection", timeout: .seconds(30)) {
                let response = try client.request("GET", "/metrics")
                scrapes += 1
                #expect(response.status == 200)
                #expect(response.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
                let parsed = try Self.parse(response.text, in: server.directory)
                exposition = parsed
                return parsed.samples(of: "ensign_serve_connections") == [
                    ["state": "idle"]: 0, ["state": "reading_headers"]: 0, ["state": "busy"]: 1,
                    ["state": "streaming"]: 1,
                ]
            }
            #expect(settled, "connections: \(exposition?.samples(of: "ensign_serve_connections") ?? [:])")
            withExtendedLifetime(stream) {}
            guard let exposition else { return }

            // Every family has its type and help; counters are named without `_total` by the parser,
            // their samples with it.
            for (name, family) in exposition.families {
                #expect(["counter", "gauge"].contains(family.type), "\(name): \(family.type)")
                #expect(!family.help.isEmpty, "\(name) has no HELP")
                #expect(!family.samples.isEmpty, "\(name) has no sample")
                if family.type == "counter" { #expect(family.samples.allSatisfy { $0.name == name + "_total" }) }
            }
            #expect(exposition.families["ensign_serve_requests"]?.type == "counter")
            #expect(exposition.families["ensign_serve_evaluations"]?.type == "counter")

            #expect(
                exposition.samples(of: "ensign_serve_requests").filter { $0.key["endpoint"] != "metrics" } == [
                    ["endpoint": "evaluate_flag", "status": "200"]: 7,
                    ["endpoint": "evaluate_flag", "status": "404"]: 1,
                    ["endpoint": "evaluate_flag", "status": "400"]: 1,
                    ["endpoint": "evaluate_flags", "status": "200"]: 1,
                    ["endpoint": "events", "status": "200"]: 1,
                ])
            // The scrapes are counted too: the last one sees those before it, and itself if it is
            // counted before it is answered.
            let scraped = exposition.value("ensign_serve_requests_total", ["endpoint": "metrics", "status": "200"])
            #expect([Double(scrapes - 1), Double(scrapes)].contains(scraped ?? 0), "\(scrapes) scrapes")
            // Bulk evaluations count every flag; a 404 and a bad body count none. No variant is "".
            #expect(
                exposition.samples(of: "ensign_serve_evaluations") == [
                    ["flag": "banner", "variant": "on", "reason": "TARGETING_MATCH"]: 3,
                    ["flag": "banner", "variant": "off", "reason": "DEFAULT"]: 3,
                    ["flag": "color", "variant": "", "reason": "STATIC"]: 2,
                    ["flag": Self.oddKey, "variant": "", "reason": "STATIC"]: 2,
                ])
            // The context's own counts (`ensign stats`), which serve turns on: the same evaluations
            // by key, the undefined key in no series.
            #expect(exposition.families["ensign_flag_evaluations"]?.type == "counter")
            #expect(
                exposition.samples(of: "ensign_flag_evaluations") == [
                    ["key": "banner", "variant": "on", "reason": "TARGETING_MATCH"]: 3,
                    ["key": "banner", "variant": "off", "reason": "DEFAULT"]: 3,
                    ["key": "color", "variant": "", "reason": "STATIC"]: 2,
                    ["key": Self.oddKey, "variant": "", "reason": "STATIC"]: 2,
                ])

            let limit = try #require(exposition.value("ensign_serve_connection_limit"))
            #expect(limit >= 1)
            #expect((exposition.value("ensign_serve_event_stream_limit") ?? 0) >= 1)
            #expect(exposition.value("ensign_serve_refused_connections_total") == 0)
            #expect(exposition.value("ensign_serve_refused_event_streams_total") == 0)
            #expect(exposition.value("ensign_serve_dropped_events_total") == 0)
            #expect(
                exposition.samples(of: "ensign_serve_closed_connections").keys.map { $0["reason"] ?? "" }.sorted() == [
                    "draining", "header_timeout", "idle_timeout", "reclaimed", "request_timeout", "stalled_stream",
                ])
            #expect(exposition.value("ensign_flags") == 3)
            #expect(exposition.value("ensign_degraded") == 0)
            #expect(exposition.value("ensign_reload_failures_total") == 0)
            #expect(exposition.value("ensign_reloads_total") != nil)
            #expect(exposition.families["ensign_fleet_reachable"] == nil)

            // The process families, under the names Prometheus's own clients use.
            let resident = try #require(exposition.value("process_resident_memory_bytes"))
            #expect(resident > 1_000_000)
            let openDescriptors = try #require(exposition.value("process_open_fds"))
            let maximumDescriptors = try #require(exposition.value("process_max_fds"))
            // At least the listening socket, the two clients' connections and the standard streams.
            #expect(openDescriptors >= 6)
            #expect(maximumDescriptors > openDescriptors)
            #expect((exposition.value("process_threads") ?? 0) >= 2)
            for family in ["process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_threads"] {
                #expect(exposition.families[family]?.type == "gauge", "\(family)")
            }
        }
    }

    @Test(
        "/healthz is 200; /readyz is 200 with a JSON body that says ready, the flags and the limits", .blocksItsThread)
    func probes() throws {
        try Self.withServer { server in
            let client = try RawHTTPClient(port: UInt16(server.port))
            let health = try client.request("GET", "/healthz")
            #expect(health.status == 200)
            #expect(health.header("content-type") == "application/json")
            #expect(try JSONValue(jsonText: health.text) == ["status": "alive"])
            let ready = try client.request("GET", "/readyz")
            #expect(ready.status == 200)
            #expect(ready.header("content-type") == "application/json")
            let body = try JSONValue(jsonText: ready.text)
            #expect(body["status"] == "ready")
            #expect(body["flags"] == 3)
            #expect(body["degraded"] == false)
            #expect((body["limits"]?["connections"]?.intValue ?? 0) >= 1)
            #expect((body["limits"]?["eventStreams"]?.intValue ?? 0) >= 1)
            #expect((body["open"]?["connections"]?.intValue ?? 0) >= 1)
            #expect(try client.request("POST", "/healthz", body: "{}").status == 405)
        }
    }

    @Test(
        "With --management-listen the operations endpoints answer there, without the token, and the OFREP port answers 404 for them",
        .blocksItsThread)
    func managementPort() throws {
        try Self.parser.prepare(for: "The /metrics exposition test")
        try Self.withServer(
            arguments: ["--management-listen", "127.0.0.1:0"], environment: ["ENSIGN_SERVE_TOKEN": "s3cret"]
        ) { server in
            #expect(server.managementPort != server.port)
            let ofrep = try RawHTTPClient(port: UInt16(server.port))
            let management = try RawHTTPClient(port: UInt16(server.managementPort))
            let authorized = ["Authorization": "Bearer s3cret"]
            for path in ["/healthz", "/readyz", "/metrics"] {
                #expect(try ofrep.request("GET", path, headers: authorized).status == 404, "\(path) on the OFREP port")
            }
            let evaluation = try ofrep.request(
                "POST", "/ofrep/v1/evaluate/flags/color", body: "{}", headers: authorized)
            #expect(evaluation.status == 200)
            #expect(try management.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 404)
            #expect(try management.request("GET", "/healthz").status == 200)
            #expect(try management.request("GET", "/readyz").status == 200)
            let metrics = try management.request("GET", "/metrics")
            #expect(metrics.status == 200)
            let exposition = try Self.parse(metrics.text, in: server.directory)
            #expect(
                exposition.value("ensign_serve_requests_total", ["endpoint": "evaluate_flag", "status": "200"]) == 1)
            #expect(
                exposition.value(
                    "ensign_serve_evaluations_total", ["flag": "color", "variant": "", "reason": "STATIC"]) == 1)
        }
    }

    @Test(
        "With a token and no management port, /metrics needs the token (it names every flag); /healthz and /readyz do not",
        .blocksItsThread)
    func metricsNeedTheToken() throws {
        try Self.withServer(environment: ["ENSIGN_SERVE_TOKEN": "s3cret"]) { server in
            #expect(server.managementPort == server.port)
            let client = try RawHTTPClient(port: UInt16(server.port))
            #expect(try client.request("GET", "/metrics").status == 401)
            #expect(try client.request("GET", "/metrics", headers: ["Authorization": "Bearer wrong"]).status == 403)
            #expect(try client.request("GET", "/metrics", headers: ["X-API-Key": "wrong"]).status == 403)
            let bearer = try client.request("GET", "/metrics", headers: ["Authorization": "Bearer s3cret"])
            #expect(bearer.status == 200)
            #expect(bearer.text.contains("# TYPE ensign_serve_requests_total counter"))
            #expect(try client.request("GET", "/metrics", headers: ["X-API-Key": "s3cret"]).status == 200)
            #expect(try client.request("GET", "/healthz").status == 200)
            #expect(try client.request("GET", "/readyz").status == 200)
        }
    }
}
