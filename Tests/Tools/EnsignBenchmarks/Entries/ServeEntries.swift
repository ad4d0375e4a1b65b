import Ensign
import EnsignControl
import EnsignOFREP
import LoopbackLoad

/// `ensign serve` as users run it, a process of its own (``ServedEnsign``) on loopback, in two
/// groups.
///
/// **Throughput and latency** (the sample of 50 targeted flags; requests carry a context with a
/// targeting key and two attributes): wrk at 32 and at 256 connections against single
/// evaluations and bulk 304 revalidations, each compared with nginx answering the same body
/// with `return 200` (and `return 304`) under the same wrk in the same run, rounds alternated;
/// one connection's latency; a live change → the event at a stream client.
///
/// **Holding a fleet**: 10,000 event streams open on a server started with no option, its
/// threads and resident memory, one change to all of them (p99 over every stream and change),
/// and then single evaluations beside the streams and 1,000 slow-header clients.
enum ServeEntries {
    static let names = [
        "serve single p50", "serve single p99", "nginx 200 at 32", "serve single at 32", "nginx 200 at 256",
        "serve single at 256", "nginx 304 at 32", "serve 304 at 32", "nginx 304 at 256", "serve 304 at 256",
        "serve bulk p50", "serve sse p50", "serve sse p99",
    ]
    static let fleetNames = [
        "fleet threads", "fleet resident", "fleet fan-out p50", "fleet fan-out p99", "beside slow clients p50",
        "beside slow clients p99",
    ]
    private static let groupName = "ensign serve (OFREP, loopback)"
    private static let fleetGroupName = "ensign serve holding a fleet"
    private static let body = #"{"context":{"targetingKey":"user-42","country":"FR","plan":"pro"}}"#
    private static let singlePath = "/ofrep/v1/evaluate/flags/bench.flag7"
    private static let bulkPath = "/ofrep/v1/evaluate/flags"

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: groupName, kind: .probe(names: names, run: run))
    }

    static func fleetGroup() -> BenchmarkGroup {
        BenchmarkGroup(name: fleetGroupName, kind: .probe(names: fleetNames, run: runFleet))
    }

    /// The OFREP service alone, in this process, without HTTP: what each request costs the
    /// server's Swift side (parsing the body, evaluating, writing the answer), for comparing
    /// with the whole server's CPU per request.
    /// The service and the two requests its in-process entries send.
    private typealias ServiceFixture = (
        service: OFREPService, single: OFREPHTTPRequest, revalidation: OFREPHTTPRequest
    )

    static func handlerGroup() -> BenchmarkGroup {
        let fixture = Lazy { () throws -> ServiceFixture in
            let service = OFREPService(context: try AppContext(definitions: definitions()))
            let single = OFREPHTTPRequest(method: "POST", target: singlePath, body: Array(body.utf8))
            let bulk = OFREPHTTPRequest(method: "POST", target: bulkPath, body: Array(body.utf8))
            guard let tag = service.respond(to: bulk).header("etag") else {
                throw BenchmarkFailure("the bulk response has no ETag")
            }
            let revalidation = OFREPHTTPRequest(
                method: "POST", target: bulkPath, headers: ["If-None-Match": tag], body: Array(body.utf8))
            return (service, single, revalidation)
        }
        // Both entries answer one request over and over; they differ only in which request.
        func answering(_ request: @escaping (ServiceFixture) -> OFREPHTTPRequest) -> (Int) throws -> Void {
            { count in try respond(count, to: fixture.value, request) }
        }
        let iterations = Iterations(full: 200_000, quick: 20_000)
        return .timed(
            "ensign serve's service, in process",
            [
                Benchmark(
                    id: "service single", name: "OFREPService.respond, single evaluation", iterations: iterations,
                    note: "the request of the serve entries, answered without HTTP", body: answering { $0.single }),
                Benchmark(
                    id: "service 304", name: "OFREPService.respond, bulk revalidation (304)", iterations: iterations,
                    note: "the same context with the current ETag", body: answering { $0.revalidation }),
            ])
    }

    /// The service's answer to the request `request` picks from `fixture`, `count` times.
    private static func respond(
        _ count: Int, to fixture: ServiceFixture, _ request: (ServiceFixture) -> OFREPHTTPRequest
    ) {
        let (service, request) = (fixture.service, request(fixture))
        for _ in 0..<count { blackHole(service.respond(to: request)) }
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
        let directory = try TemporaryFiles.directory()
        defer { TemporaryFiles.remove(directory) }
        try TemporaryFiles.write(directory + "/flags.yaml", definitions())
        let server = try ServedEnsign(flagsFile: directory + "/flags.yaml")
        defer { server.stop() }
        let port = server.port
        let requests = settings.isQuick ? 500 : 3_000
        let rounds = max(1, settings.rounds / 3)
        let wrkDuration: Duration = settings.isQuick ? .seconds(2) : .seconds(5)

        let single = LoopbackHTTPClient.post(singlePath, body: body)
        let connection = try LoopbackHTTPClient(port: port)
        connection.keepsBody = true
        try expect(200, try connection.exchange(single))
        let singleBody = connection.lastBody
        connection.keepsBody = false
        try expect(200, try connection.exchange(LoopbackHTTPClient.post(bulkPath, body: body)))
        guard let tag = LoopbackHTTPClient.header("etag", in: connection.lastHead) else {
            throw BenchmarkFailure("the bulk response has no ETag")
        }
        let nginx = try NginxReference.executable.map {
            try NginxReference(executable: $0, body: singleBody, entityTag: tag)
        }
        defer { nginx?.stop() }

        let singleRounds = try LatencyRounds(rounds: rounds, events: requests) {
            [try timed { try expect(200, try connection.exchange(single)) }]
        }
        let singleLoad = Wrk.Load(path: singlePath, body: body)
        var revalidation = Wrk.Load(path: bulkPath, body: body)
        revalidation.headers.append(("If-None-Match", tag))
        var throughput: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for connections in [32, 256] {
                // Alternated in each round, so that other load on the machine falls on both alike.
                if let nginx {
                    throughput["nginx 200 at \(connections)", default: []].append(
                        try Wrk.nanosecondsPerRequest(
                            port: nginx.port, load: Wrk.Load(path: nginx.singlePath, body: body),
                            connections: connections, duration: wrkDuration))
                    throughput["nginx 304 at \(connections)", default: []].append(
                        try Wrk.nanosecondsPerRequest(
                            port: nginx.port, load: Wrk.Load(path: nginx.revalidationPath, body: body),
                            connections: connections, duration: wrkDuration))
                }
                throughput["serve single at \(connections)", default: []].append(
                    try Wrk.nanosecondsPerRequest(
                        port: port, load: singleLoad, connections: connections, duration: wrkDuration))
                throughput["serve 304 at \(connections)", default: []].append(
                    try Wrk.nanosecondsPerRequest(
                        port: port, load: revalidation, connections: connections, duration: wrkDuration))
            }
        }

        // A new connection: the first one sat idle through the wrk rounds, longer than the server's
        // idle time-out.
        let bulkConnection = try LoopbackHTTPClient(port: port)
        let bulk = LoopbackHTTPClient.post(bulkPath, body: body)
        let bulkRounds = try LatencyRounds(rounds: rounds, events: requests / 5) {
            [try timed { try expect(200, try bulkConnection.exchange(bulk)) }]
        }

        let stream = try LoopbackHTTPClient(port: port)
        try stream.send(Array("GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        try stream.read(until: ": connected")
        let control = try ControlClient.connect(to: .socket(server.socketPath))
        var value = false
        let changes = settings.isQuick ? 30 : 150
        let sseRounds = try LatencyRounds(rounds: rounds, events: changes) {
            value.toggle()
            let start = ContinuousClock.now
            _ = try control.set("bench.flag1", to: .bool(value))
            try stream.read(until: "refetchEvaluation")
            return [Double((ContinuousClock.now - start).nanoseconds)]
        }

        let wrkNote = "wrk, 2 threads, \(wrkDuration) a round"
        var results = EntryResult.latencyPercentiles(
            group: groupName, id: "serve single", name: "single evaluation, one connection", events: requests,
            p50: singleRounds.p50, p99: singleRounds.p99,
            note: "POST /ofrep/v1/evaluate/flags/KEY (a targeted flag), keep-alive, request sent → response read")
        for connections in [32, 256] {
            let reference = nginx == nil ? nil : "nginx 200 at \(connections)"
            results.append(
                entry(
                    "nginx 200 at \(connections)", "nginx `return 200` of the same body, \(connections) connections",
                    1, throughput["nginx 200 at \(connections)"] ?? [],
                    note: nginx == nil
                        ? "nginx is not installed (scripts/setup --with-bench-tools): no reference"
                        : "\(wrkNote); ≈ \(perSecond(throughput["nginx 200 at \(connections)"] ?? [])) requests/s"))
            results.append(
                entry(
                    "serve single at \(connections)", "single evaluations, \(connections) connections", 1,
                    throughput["serve single at \(connections)"] ?? [], reference: reference,
                    target: .ratio(atMost: 1.25, aim: 1),
                    note:
                        "\(wrkNote); ≈ \(perSecond(throughput["serve single at \(connections)"] ?? [])) evaluations/s;"
                        + " the ratio is nginx's rate ÷ this one's (≤ 1.25× is ≥ 0.8× nginx's rate)"))
        }
        for connections in [32, 256] {
            let reference = nginx == nil ? nil : "nginx 304 at \(connections)"
            results.append(
                entry(
                    "nginx 304 at \(connections)", "nginx `return 304`, \(connections) connections", 1,
                    throughput["nginx 304 at \(connections)"] ?? [],
                    note: "\(wrkNote); ≈ \(perSecond(throughput["nginx 304 at \(connections)"] ?? [])) requests/s"))
            results.append(
                entry(
                    "serve 304 at \(connections)", "bulk revalidations (304), \(connections) connections", 1,
                    throughput["serve 304 at \(connections)"] ?? [], reference: reference,
                    target: .ratio(atMost: 1.0 / 0.9, aim: 1),
                    note: "\(wrkNote); ≈ \(perSecond(throughput["serve 304 at \(connections)"] ?? [])) revalidations/s;"
                        + " ≤ 1.11× is ≥ 0.9× nginx's rate"))
        }
        results.append(
            entry(
                "serve bulk p50", "bulk evaluation (50 flags), p50", requests / 5, bulkRounds.p50,
                note: "POST /ofrep/v1/evaluate/flags, 200 with every flag"))
        return results
            + EntryResult.latencyPercentiles(
                group: groupName, id: "serve sse", name: "change → server-sent event at the client", events: changes,
                p50: sseRounds.p50, p99: sseRounds.p99, target: .time(atMostNanoseconds: 200_000_000, aim: 50_000_000),
                note: "from a ControlClient's set to the stream client reading refetchEvaluation")
    }

    private static func runFleet(_ settings: RunSettings) throws -> [EntryResult] {
        LoopbackCrowd.raiseDescriptorLimit()
        let directory = try TemporaryFiles.directory()
        defer { TemporaryFiles.remove(directory) }
        try TemporaryFiles.write(directory + "/flags.yaml", definitions())
        // No option: the defaults are what must hold a fleet.
        let server = try ServedEnsign(flagsFile: directory + "/flags.yaml")
        defer { server.stop() }
        let idleResident = server.residentBytes ?? 0
        let streamCount = 10_000
        let streams = LoopbackCrowd()
        try streams.connect(
            streamCount, port: Int(server.port), sending: "GET /ofrep/v1/events HTTP/1.1\r\nHost: b\r\n\r\n")
        let opened = try streams.pump(timeout: .seconds(300)) { received, _ in received.containsText(": connected") }
        guard opened == streamCount else {
            throw BenchmarkFailure(
                "\(opened) of \(streamCount) event streams opened (\(streams.closedCount) closed by the server)")
        }
        let threads = Double(server.threads ?? 0)
        let resident = Double(server.residentBytes ?? 0)

        let control = try ControlClient.connect(to: .socket(server.socketPath))
        let changes = settings.isQuick ? 3 : 10
        var arrivals: [Double] = []
        var value = false
        for change in 1...changes {
            value.toggle()
            // Only this change's bytes are searched: scanning each stream's whole history for the
            // marker made the client, not the server, what this entry measured.
            streams.clearReceived()
            let start = ContinuousClock.now
            _ = try control.set("bench.flag1", to: .bool(value))
            let heard = try streams.pump(timeout: .seconds(120)) { received, _ in
                guard received.containsText("refetchEvaluation") else { return false }
                arrivals.append(Double((ContinuousClock.now - start).nanoseconds))
                return true
            }
            guard heard == streamCount else {
                throw BenchmarkFailure("change \(change) reached \(heard) of \(streamCount) streams")
            }
        }
        arrivals.sort()

        // Slow-header clients beside the streams, then evaluations on a connection of their own.
        let slow = LoopbackCrowd()
        try slow.connect(
            1_000, port: Int(server.port),
            sending: "POST /ofrep/v1/evaluate/flags/bench.flag7 HTTP/1.1\r\nHost: b\r\nX-Slow: ")
        let connection = try LoopbackHTTPClient(port: server.port)
        let single = LoopbackHTTPClient.post(singlePath, body: body)
        var latencies: [Double] = []
        for index in 0..<(settings.isQuick ? 300 : 2_000) {
            if index % 100 == 0 { try slow.sendToAll(Array("a".utf8)) }
            latencies.append(try timed { try expect(200, try connection.exchange(single)) })
        }
        latencies.sort()
        let perStream = Int((resident - Double(idleResident)) / Double(streamCount))

        return [
            EntryResult(
                group: fleetGroupName, id: "fleet threads", name: "server threads, 10,000 streams open",
                unit: .count, iterations: 1, samples: [threads], target: .count(atMost: 16),
                note: "from /proc/PID/status of the ensign serve process, started with no option"),
            EntryResult(
                group: fleetGroupName, id: "fleet resident", name: "server resident memory, 10,000 streams open",
                unit: .bytes, iterations: 1, samples: [resident], target: .memory(atMostBytes: 256 * 1_048_576),
                note: "≈ \(perStream) bytes per idle stream over the server at rest (\(idleResident / 1024) KiB)"),
        ]
            + EntryResult.latencyPercentiles(
                group: fleetGroupName, id: "fleet fan-out", name: "one change → all 10,000 streams",
                events: changes * streamCount, p50: [percentile(arrivals, 0.5)], p99: [percentile(arrivals, 0.99)],
                target: .time(atMostNanoseconds: 100_000_000),
                note: "from a ControlClient's set to each stream's client reading refetchEvaluation (one client"
                    + " thread reads all 10,000 sockets with epoll), over \(changes) changes")
            + EntryResult.latencyPercentiles(
                group: fleetGroupName, id: "beside slow clients",
                name: "single evaluation beside the streams and 1,000 slow clients", events: latencies.count,
                p50: [percentile(latencies, 0.5)], p99: [percentile(latencies, 0.99)],
                target: .time(atMostNanoseconds: 20_000_000),
                note: "one keep-alive connection; the slow clients send a header byte every 100 evaluations")
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
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
}
