import Ensign
import EnsignJSON
import EnsignOFREP
import EnsignServe
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import LoopbackLoad
import Testing

/// The server over real loopback sockets: every status code, ETag and 304, the event stream,
/// and the bounds (bodies, headers, silent clients, stream clients).
@Suite("ensign serve's HTTP server")
struct OFREPServerTests {
    static let definitions = """
        flags:
        \(BannerFlag.yaml)
          color: { default: blue }
        """

    /// A running server over a fresh context, stopped when the test's value goes.
    final class Harness {
        let context: AppContext
        let server: OFREPServer
        var port: UInt16 { server.address.port }

        init(token: String? = nil, configure: (inout OFREPServerOptions) -> Void = { _ in }) throws {
            context = try AppContext(definitions: OFREPServerTests.definitions)
            var serviceOptions = OFREPServiceOptions()
            serviceOptions.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
            serviceOptions.maximumBodyBytes = 1024
            serviceOptions.credentials = try token.map { try OFREPCredentials(token: $0) }
            var options = OFREPServerOptions()
            options.listenAddress = ListenAddress(host: "127.0.0.1", port: 0)
            options.eventKeepAliveInterval = .milliseconds(200)
            configure(&options)
            server = try OFREPServer.start(
                service: OFREPService(context: context, options: serviceOptions), options: options)
        }

        deinit { server.stop() }

        func client() throws -> RawHTTPClient { try RawHTTPClient(port: port) }
    }

    @Test("Single evaluation: 200 with the value for the request's context, 404 for an unknown flag")
    func single() throws {
        let harness = try Harness()
        let client = try harness.client()
        let france = try client.request(
            "POST", "/ofrep/v1/evaluate/flags/banner", body: #"{"context": {"targetingKey": "u", "country": "FR"}}"#)
        #expect(france.status == 200)
        #expect(france.header("content-type") == "application/json")
        #expect(try OFREPEvaluationSuccess(jsonBytes: france.body).value == .bool(true))
        // The same connection again (keep-alive), another context.
        let other = try client.request("POST", "/ofrep/v1/evaluate/flags/banner", body: #"{"context": {}}"#)
        #expect(try OFREPEvaluationSuccess(jsonBytes: other.body).value == .bool(false))
        let missing = try client.request("POST", "/ofrep/v1/evaluate/flags/nope", body: "{}")
        #expect(missing.status == 404)
        #expect(try OFREPEvaluationFailure(jsonBytes: missing.body).errorCode == .flagNotFound)
    }

    @Test("Bulk: 200 with an ETag, 304 for that tag, 200 with a new tag after a live change")
    func bulkEntityTags() throws {
        let harness = try Harness()
        let client = try harness.client()
        let first = try client.request("POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#)
        #expect(first.status == 200)
        let tag = try #require(first.header("etag"))
        #expect(try OFREPBulkEvaluationResponse(jsonBytes: first.body).flags.map(\.key) == ["banner", "color"])
        let revalidated = try client.request(
            "POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#, headers: ["If-None-Match": tag])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        try harness.context.setOverride(keyNamed: "color", to: "red")
        let changed = try client.request(
            "POST", "/ofrep/v1/evaluate/flags", body: #"{"context": {}}"#, headers: ["If-None-Match": tag])
        #expect(changed.status == 200)
        #expect(changed.header("etag") != nil && changed.header("etag") != tag)
    }

    @Test(
        "Configuration 200; wrong method 405; unknown path 404; bad JSON 400 with an OFREP body, then the server goes on"
    )
    func statusCodes() throws {
        let harness = try Harness()
        let client = try harness.client()
        #expect(try client.request("GET", "/ofrep/v1/configuration").status == 200)
        let wrongMethod = try client.request("GET", "/ofrep/v1/evaluate/flags")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "POST")
        #expect(try client.request("POST", "/elsewhere", body: "{}").status == 404)
        let bad = try client.request("POST", "/ofrep/v1/evaluate/flags/color", body: #"{"context": "#)
        #expect(bad.status == 400)
        let failure = try OFREPEvaluationFailure(jsonBytes: bad.body)
        #expect(failure.errorCode == .invalidContext)
        #expect(failure.errorDetails?.contains("not JSON") == true)
        let badBulk = try client.request("POST", "/ofrep/v1/evaluate/flags", body: "[1]")
        #expect(badBulk.status == 400)
        #expect(try OFREPBulkEvaluationFailure(jsonBytes: badBulk.body).errorCode == .invalidContext)
        #expect(try client.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
    }

    @Test("A request that is not HTTP gets 400 from libmicrohttpd, and the server goes on")
    func malformedHTTP() throws {
        let harness = try Harness()
        let garbage = try harness.client()
        try garbage.send("THIS IS NOT HTTP\r\n\r\n")
        #expect(try garbage.readResponse().status == 400)
        #expect(try harness.client().request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
    }

    @Test("With a token: none is 401, a wrong one 403, a bearer token or an API key 200; the stream checks it too")
    func credentials() throws {
        let harness = try Harness(token: "t0ken")
        let client = try harness.client()
        let path = "/ofrep/v1/evaluate/flags/color"
        let missing = try client.request("POST", path, body: "{}")
        #expect(missing.status == 401)
        #expect(missing.header("www-authenticate") == "Bearer")
        #expect(try client.request("POST", path, body: "{}", headers: ["Authorization": "Bearer wrong"]).status == 403)
        #expect(try client.request("POST", path, body: "{}", headers: ["Authorization": "Bearer t0ken"]).status == 200)
        #expect(try client.request("POST", path, body: "{}", headers: ["X-API-Key": "t0ken"]).status == 200)
        #expect(try client.request("GET", "/ofrep/v1/events").status == 401)
    }

    @Test("A body over the limit is 413, announced or sent; too many header fields are 431")
    func bodyAndHeaderLimits() throws {
        let harness = try Harness()
        let big = String(repeating: "x", count: 2000)
        let announced = try harness.client()
        try announced.send("POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: a\r\nContent-Length: 5000000\r\n\r\n")
        #expect(try announced.readResponse().status == 413)
        let chunked = try harness.client()
        try chunked.send(
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "7d0\r\n\(big)\r\n0\r\n\r\n")
        #expect(try chunked.readResponse().status == 413)
        var headers: [String: String] = [:]
        for index in 0..<80 { headers["X-Filler-\(index)"] = "1" }
        let many = try harness.client().request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}", headers: headers)
        #expect(many.status == 431)
        #expect(try OFREPGeneralError(jsonBytes: many.body).errorDetails?.contains("header fields") == true)
        // A header section larger than the connection's memory: refused by libmicrohttpd itself.
        let huge = try harness.client().request(
            "POST", "/ofrep/v1/evaluate/flags/color", body: "{}",
            headers: ["X-Huge": String(repeating: "y", count: 40000)])
        #expect(huge.status >= 400 && huge.status < 500)
        #expect(try harness.client().request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
    }

    @Test(
        "A client whose header section never ends is cut after the header time-out; others are served meanwhile",
        .blocksItsThread)
    func slowClient() throws {
        let harness = try Harness { $0.headerTimeout = .seconds(1) }
        let slow = try harness.client()
        try slow.send("POST /ofrep/v1/evaluate/flags/color HTTP/1.1\r\nHost: a\r\n")
        #expect(try harness.client().request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        #expect(slow.isClosedByServer(within: .seconds(30)))
        #expect(harness.server.report.closedSlowClients == 1)
    }

    @Test(
        "A client that stops sending its body is cut after the request time-out; a kept-alive connection idle longer is not",
        .blocksItsThread)
    func requestTimeout() throws {
        let harness = try Harness { $0.requestTimeout = .milliseconds(500) }
        let keptAlive = try harness.client()
        #expect(try keptAlive.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        let stalled = try harness.client()
        try stalled.send("POST /ofrep/v1/evaluate/flags/color HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{")
        #expect(stalled.isClosedByServer(within: .seconds(30)))
        #expect(
            waitUntil("the stalled request to be counted") {
                harness.server.report.closedStalledRequests == 1
            })
        // Idle (not busy) all this while: the idle time-out (30 s) applies to it, not the request one.
        #expect(try keptAlive.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
    }

    @Test("At the limit with no idle connection, a newcomer is refused; the server serves again when they go")
    func connectionLimit() throws {
        let harness = try Harness { $0.connectionLimit = 2 }
        var held: [RawHTTPClient] = []
        for count in 1...2 {
            let client = try harness.client()
            try client.send("POST /ofrep/v1/evaluate/flags/color HTTP/1.1\r\nHost: a\r\n")
            held.append(client)
            #expect(
                waitUntil("connection \(count) to be reading its header section") {
                    harness.server.report.connectionsReadingHeaders == count
                })
        }
        let refused = try harness.client()
        #expect(refused.isClosedByServer(within: .seconds(30)))
        #expect(harness.server.report.refusedConnections == 1)
        held.removeAll()
        #expect(waitUntil("the held connections to close") { harness.server.openConnectionCount == 0 })
        #expect(try harness.client().request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
    }

    @Test("Near the limit, each newcomer takes the place of the connection idle the longest")
    func idleConnectionsAreReclaimedOldestFirst() throws {
        // A limit of 3 reclaims from 2 open on (the pressure mark is a sixteenth below the limit, at least 1).
        let harness = try Harness { $0.connectionLimit = 3 }
        // Two kept-alive connections, idle after a response: the first has been idle longer.
        let oldest = try harness.client()
        #expect(try oldest.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        // The server counts a connection idle from the end of its request, which may come a
        // moment after the client has read the response: wait for it, so that the order is known.
        #expect(waitUntil("the first to be idle") { harness.server.report.idleConnections == 1 })
        let newer = try harness.client()
        #expect(try newer.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        #expect(waitUntil("both to be idle") { harness.server.report.idleConnections == 2 })
        let newcomer = try harness.client()
        #expect(try newcomer.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        #expect(oldest.isClosedByServer(within: .seconds(30)))
        #expect(try newer.request("POST", "/ofrep/v1/evaluate/flags/color", body: "{}").status == 200)
        #expect(harness.server.report.reclaimedIdleConnections == 1)
        #expect(harness.server.report.refusedConnections == 0)
    }

    /// Opens the event stream, runs `change` once the stream is open, and reads until an event
    /// whose data is complete arrives; returns that event.
    static func awaitEvent(from harness: Harness, after change: () throws -> Void) throws -> OFREPServerSentEvent? {
        let stream = try harness.client()
        try stream.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\nAccept: text/event-stream\r\n\r\n")
        var changeError: (any Error)?
        var hasChanged = false
        let result = try stream.readStream(timeout: .seconds(5)) { text in
            if !hasChanged, text.contains(": connected") {
                hasChanged = true
                do { try change() } catch { changeError = error }
            }
            return text.components(separatedBy: "\n\n").dropLast().contains { $0.contains("data:") }
        }
        if let changeError { throw changeError }
        #expect(result.status == 200)
        guard result.isDone,
            let block = result.text.components(separatedBy: "\n\n").first(where: { $0.contains("data:") })
        else {
            Issue.record("no event arrived; the stream sent: \(result.text)")
            return nil
        }
        return try OFREPServerSentEvent(streamText: block)
    }

    @Test("A live change reaches an event-stream client as refetchEvaluation, whose id is the new configuration digest")
    func eventStream() throws {
        let harness = try Harness()
        let event = try Self.awaitEvent(from: harness) {
            #expect(harness.server.eventStreamClientCount == 1)
            try harness.context.setOverride(keyNamed: "banner", to: true)
        }
        #expect(event?.data.type == OFREPEventData.refetchEvaluationType)
        #expect(event?.id == harness.server.service.configurationDigest)
        #expect(event?.data.etag != nil)
    }

    @Test("A change only some contexts see (the server's own evaluation context) still reaches the stream")
    func ruleOnlyChangeReachesTheStream() throws {
        let harness = try Harness()
        let event = try Self.awaitEvent(from: harness) {
            harness.context.setEvaluationContext(EvaluationContext(attributes: ["plan": "pro"]))
        }
        #expect(event?.data.type == OFREPEventData.refetchEvaluationType)
    }

    @Test(
        "Stream clients over the limit get 503; a reconnecting client with an old Last-Event-ID gets the current event",
        .blocksItsThread)
    func eventStreamLimitsAndResume() throws {
        let harness = try Harness { $0.eventStreamLimit = 1 }
        let first = try harness.client()
        try first.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try first.readStream(timeout: .seconds(5)) { $0.contains(": connected") }
        let second = try harness.client().request("GET", "/ofrep/v1/events")
        #expect(second.status == 503)
        #expect(second.header("retry-after") != nil)
        _ = consume first
        #expect(
            waitUntil("the first stream to go", timeout: .seconds(5)) { harness.server.eventStreamClientCount == 0 })
        let resumed = try harness.client()
        try resumed.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\nLast-Event-ID: 0\r\n\r\n")
        let event = try resumed.readStream(timeout: .seconds(5)) { $0.contains("refetchEvaluation") }
        #expect(event.isDone)
    }

    @Test(
        "A stream whose client reads nothing is cut once its events wait unread for the request time-out; others go on",
        .blocksItsThread)
    func stalledStreamIsCut() throws {
        let harness = try Harness { $0.requestTimeout = .milliseconds(300) }
        let stalled = LoopbackCrowd()
        try stalled.connect(
            1, port: Int(harness.port), sending: "GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\n\r\n", receiveBuffer: 1024
        )
        #expect(waitUntil("the stream to open") { harness.server.eventStreamClientCount == 1 })
        let reader = LoopbackCrowd()
        try reader.connect(1, port: Int(harness.port), sending: "GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try reader.pump(timeout: .seconds(30)) { received, _ in received.containsText(": connected") } == 1)
        // Changes until the unread events fill the stalled client's buffers and the server's,
        // and wait there for the time-out; each change is one event. The reader reads all along.
        var value = false
        let cut = waitUntil("the stalled stream to be cut", timeout: .seconds(120), pollingEvery: .milliseconds(1)) {
            // The server's send buffer grows with the connection (to megabytes): many changes a round.
            for _ in 0..<100 {
                value.toggle()
                try? harness.context.setOverride(keyNamed: "color", to: value ? "red" : "blue")
            }
            _ = try? reader.pump(timeout: .milliseconds(1)) { _, _ in false }
            return harness.server.report.closedStalledStreams == 1
        }
        #expect(cut)
        #expect(waitUntil("the stalled stream to go") { harness.server.eventStreamClientCount == 1 })
        #expect(reader.closedCount == 0)
        #expect(harness.server.report.closedStalledStreams == 1)
        // The reading client still hears changes.
        _ = try reader.pump(timeout: .milliseconds(100)) { _, _ in false }
        reader.clearReceived()
        try harness.context.setOverride(keyNamed: "banner", to: true)
        #expect(
            try reader.pump(timeout: .seconds(30)) { received, _ in received.containsText("refetchEvaluation") } == 1)
    }

    @Test("Stopping the server ends open event streams and frees the port")
    func stopEndsStreams() throws {
        let harness = try Harness()
        let stream = try harness.client()
        try stream.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try stream.readStream(timeout: .seconds(5)) { $0.contains(": connected") }
        let start = ContinuousClock.now
        harness.server.stop()
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(stream.isClosedByServer(within: .seconds(3)))
        #expect(throws: (any Error).self) { try RawHTTPClient(port: harness.port) }
    }
}
