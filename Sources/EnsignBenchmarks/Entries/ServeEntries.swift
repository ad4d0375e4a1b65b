import Dispatch
import Ensign
import EnsignOFREP
import EnsignServe
import Synchronization

/// `ensign serve` on loopback, driven by a small load generator written for the benchmark
/// (bounded in requests and time): single evaluations (one connection's latency, and
/// throughput over two connections), bulk evaluation and its 304 revalidation, and a live
/// change → server-sent event at a stream client.
///
/// The flag set is the sample of 50 flags the targeted-evaluation entries use; requests carry
/// a context with a targeting key and two attributes.
///
/// The throughput entries are compared with nginx serving the single evaluation's response
/// body from a static file (``NginxReference``), driven by the same load generator, rounds
/// alternated: DESIGN.md's floor is 0.25× nginx's rate (at most 4× its time per request),
/// its aim 0.5× for single evaluations and 0.8× for a bulk 304 revalidation.
enum ServeEntries {
    static let names = [
        "nginx static throughput", "serve single p50", "serve single p99", "serve single throughput",
        "serve bulk p50", "serve bulk 304 p50", "serve bulk 304 throughput", "serve sse p50", "serve sse p99",
    ]
    private static let groupName = "ensign serve (OFREP, loopback)"
    private static let body = #"{"context":{"targetingKey":"user-42","country":"FR","plan":"pro"}}"#

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: names, run: run))
    }

    private static func definitions() -> String {
        var text = "flags:\n"
        for index in 0..<50 {
            text += """
                  bench.flag\(index):
                    variants: { on: true, off: false }
                    defaultVariant: off
                    targeting: { if: [{ in: [{ var: country }, [FR, BE]] }, { fractional: [[on, 25], [off, 75]] }, null] }

                """
        }
        return text
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        let context = try AppContext(definitions: definitions())
        var serviceOptions = OFREPServiceOptions()
        serviceOptions.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        var options = OFREPServerOptions()
        options.listenAddress = ListenAddress(host: "127.0.0.1", port: 0)
        let server = try OFREPServer.start(
            service: OFREPService(context: context, options: serviceOptions), options: options)
        defer { server.stop() }
        let port = server.address.port
        let requests = settings.isQuick ? 500 : 3_000
        let rounds = max(1, settings.rounds / 3)

        let single = LoopbackHTTPClient.post("/ofrep/v1/evaluate/flags/bench.flag7", body: body)
        let connection = try LoopbackHTTPClient(port: port)
        connection.keepsBody = true
        try expect(200, try connection.exchange(single))
        connection.keepsBody = false
        let nginx = try NginxReference.executable.map { try NginxReference(executable: $0, body: connection.lastBody) }
        defer { nginx?.stop() }
        let singleRounds = try LatencyRounds(rounds: rounds, events: requests) {
            [try timed { try expect(200, try connection.exchange(single)) }]
        }
        var throughput: [Double] = []
        var nginxThroughput: [Double] = []
        for _ in 0..<rounds {
            // Alternated in each round, so that other load on the machine falls on both alike.
            if let nginx {
                nginxThroughput.append(
                    try parallelNanosecondsPerRequest(
                        port: nginx.port, request: LoopbackHTTPClient.get(nginx.path), requests: requests))
            }
            throughput.append(try parallelNanosecondsPerRequest(port: port, request: single, requests: requests))
        }

        let bulk = LoopbackHTTPClient.post("/ofrep/v1/evaluate/flags", body: body)
        let bulkRounds = try LatencyRounds(rounds: rounds, events: requests / 5) {
            [try timed { try expect(200, try connection.exchange(bulk)) }]
        }
        try expect(200, try connection.exchange(bulk))
        guard let tag = LoopbackHTTPClient.header("etag", in: connection.lastHead) else {
            throw BenchmarkFailure("the bulk response has no ETag")
        }
        let revalidate = LoopbackHTTPClient.post(
            "/ofrep/v1/evaluate/flags", body: body, headers: "If-None-Match: \(tag)\r\n")
        let revalidateRounds = try LatencyRounds(rounds: rounds, events: requests) {
            [try timed { try expect(304, try connection.exchange(revalidate)) }]
        }
        var revalidateThroughput: [Double] = []
        for _ in 0..<rounds {
            revalidateThroughput.append(
                try parallelNanosecondsPerRequest(port: port, request: revalidate, requests: requests, status: 304))
        }

        let stream = try LoopbackHTTPClient(port: port)
        try stream.send(Array("GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        try stream.read(until: ": connected")
        var value = false
        let changes = settings.isQuick ? 30 : 150
        let sseRounds = try LatencyRounds(rounds: rounds, events: changes) {
            value.toggle()
            let start = ContinuousClock.now
            try context.setOverride(keyNamed: "bench.flag1", to: .bool(value))
            try stream.read(until: "refetchEvaluation")
            return [Double((ContinuousClock.now - start).nanoseconds)]
        }

        let nginxReference = nginx == nil ? nil : "nginx static throughput"
        return [
            entry(
                "nginx static throughput", "nginx, the same body from a static file, 2 connections, time per request",
                requests, nginxThroughput,
                note: nginx == nil
                    ? "nginx is not installed (apt-get install nginx-light): the serve entries have no reference"
                    : "GET of a file holding the single evaluation's response body; two workers, no access log;"
                        + " ≈ \(perSecond(nginxThroughput)) requests/s (median round)"),
            entry(
                "serve single p50", "single evaluation, one connection, p50", requests, singleRounds.p50,
                note: "POST /ofrep/v1/evaluate/flags/KEY (a targeted flag), keep-alive, request sent → response read"),
            entry(
                "serve single p99", "single evaluation, one connection, p99", requests, singleRounds.p99,
                note: "p99 of the same"),
            entry(
                "serve single throughput", "single evaluations, 2 connections, time per request", requests, throughput,
                reference: nginxReference, target: .ratio(atMost: 4, aim: 2),
                note: "two client threads, \(requests) requests each; ≈ \(perSecond(throughput)) evaluations/s"
                    + " (median round); the ratio is nginx's rate ÷ this one's"),
            entry(
                "serve bulk p50", "bulk evaluation (50 flags), p50", requests / 5, bulkRounds.p50,
                note: "POST /ofrep/v1/evaluate/flags, 200 with every flag"),
            entry(
                "serve bulk 304 p50", "bulk revalidation (If-None-Match → 304), p50", requests, revalidateRounds.p50,
                note: "the current ETag sent back: no evaluation, no body"),
            entry(
                "serve bulk 304 throughput", "bulk revalidations (304), 2 connections, time per request", requests,
                revalidateThroughput, reference: nginxReference, target: .ratio(atMost: 4, aim: 1.25),
                note: "two client threads; ≈ \(perSecond(revalidateThroughput)) revalidations/s (median round)"),
            entry(
                "serve sse p50", "override → server-sent event at the client, p50", changes, sseRounds.p50,
                note: "from setOverride to the client reading refetchEvaluation"),
            entry(
                "serve sse p99", "override → server-sent event at the client, p99", changes, sseRounds.p99,
                target: .time(atMostNanoseconds: 200_000_000, aim: 50_000_000), note: "p99 of the same"),
        ]
    }

    private static func entry(
        _ id: String, _ name: String, _ iterations: Int, _ samples: [Double], reference: String? = nil,
        target: Target? = nil, note: String
    ) -> EntryResult {
        EntryResult(
            group: groupName, id: id, name: name, unit: .nanosecondsPerOperation, iterations: iterations,
            samples: samples, reference: reference, target: target, note: note)
    }

    /// Requests per second of the median round of time-per-request samples.
    private static func perSecond(_ samples: [Double]) -> Int {
        samples.isEmpty ? 0 : Int(1e9 / samples.sorted()[samples.count / 2])
    }

    private static func timed(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return Double((ContinuousClock.now - start).nanoseconds)
    }

    private static func expect(_ status: Int, _ actual: Int) throws {
        guard actual == status else { throw BenchmarkFailure("ensign serve answered \(actual), expected \(status)") }
    }

    /// Wall time per request over two connections on two threads, each sending `requests` and
    /// expecting `status` for each.
    private static func parallelNanosecondsPerRequest(
        port: UInt16, request: [UInt8], requests: Int, status: Int = 200
    ) throws -> Double {
        let clients = 2
        let failures = Atomic<Int>(0)
        let start = ContinuousClock.now
        // Each thread connects its own client (a connect is microseconds next to the requests).
        DispatchQueue.concurrentPerform(iterations: clients) { _ in
            guard let connection = try? LoopbackHTTPClient(port: port) else {
                failures.add(requests, ordering: .relaxed)
                return
            }
            for _ in 0..<requests where (try? connection.exchange(request)) != status {
                failures.add(1, ordering: .relaxed)
            }
        }
        let elapsed = Double((ContinuousClock.now - start).nanoseconds)
        let failed = failures.load(ordering: .relaxed)
        guard failed == 0 else { throw BenchmarkFailure("\(failed) requests failed under load") }
        return elapsed / Double(requests * clients)
    }
}
