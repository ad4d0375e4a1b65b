import EnsignHTTP
import EnsignOFREP
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

@Suite("OFREP remote source's event streams")
struct RemoteStreamTests {
    private func body(streams: String) -> String {
        #"{"flags": [{"key": "list.pageSize", "value": 40, "reason": "STATIC"}], "eventStreams": "# + streams + "}"
    }

    @Test("Credentials go to the server's own stream, not to a stream on another host, whose URL is used as given")
    func credentialsStayHome() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let streams =
            #"[{"type": "websocket", "url": "ws://x"}, {"type": "sse", "url": "http://elsewhere:9/s?channel=c&token=t"}]"#
        server.state.withLock { $0.scripted = [(200, [("ETag", "\"a\"")], body(streams: streams))] }
        var configuration = testConfiguration()
        configuration.headers = ["Authorization": "Bearer secret"]
        let app = try attachedApp(configuration, server: server)
        defer { app.source.stop() }
        #expect(
            app.source.waitUntilStreaming(timeout: .seconds(10)), "the unknown type is skipped, the sse one followed")
        let (endpoint, stream) = server.state.withLock {
            ($0.streamEndpoints.first, $0.requests.first { $0.method == "GET" })
        }
        #expect(endpoint?.host == "elsewhere" && endpoint?.port == 9)
        // The stream's endpoint holds the whole target; the request adds nothing to it.
        #expect(stream?.method == "GET" && (endpoint?.basePath ?? "") + (stream?.path ?? "") == "/s?channel=c&token=t")
        #expect(stream?.headers.contains { $0.name == "Authorization" } == false)
        #expect(
            server.bulkRequests.allSatisfy { request in
                request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer secret" }
            })
    }

    @Test(
        "Over https, a stream on plain http is not used (the source polls) and credentials go to the same origin only")
    func noDowngradeFromTLS() throws {
        let server = try ServiceTransport(definitions: serverDefinitions, supportsTLS: true)
        let plain = #"[{"type": "sse", "url": "http://flags.test/events"}]"#
        server.state.withLock {
            $0.scripted = [(200, [("ETag", "\"a\"")], body(streams: plain))]
            $0.offersStream = false  // the polls after it offer no stream of the service's own
        }
        var configuration = testConfiguration(poll: .milliseconds(50), baseURL: "https://flags.test")
        configuration.headers = ["Authorization": "Bearer secret"]
        let app = try attachedApp(configuration, server: server)
        #expect(waitUntil("two polls", timeout: .seconds(10)) { server.bulkRequests.count >= 2 })
        #expect(server.state.withLock { $0.streamConnections } == 0, "the http stream is never connected")
        app.source.stop()

        let secure = try ServiceTransport(definitions: serverDefinitions, supportsTLS: true)
        let streams = #"[{"type": "sse", "url": "https://flags.test:8443/events"}, {"type": "sse", "url": "/events"}]"#
        secure.state.withLock { $0.scripted = [(200, [("ETag", "\"a\"")], body(streams: streams))] }
        let second = try OFREPRemoteSource(configuration: configuration, transport: secure)
        let other = try AppContext(definitions: appDefinitions)
        other.attach(second)
        defer { second.stop() }
        #expect(second.waitUntilStreaming(timeout: .seconds(10)))
        let (endpoint, stream) = secure.state.withLock {
            ($0.streamEndpoints.first, $0.requests.first { $0.method == "GET" })
        }
        #expect(endpoint?.scheme == .https && endpoint?.port == 8443)
        #expect(stream?.headers.contains { $0.name == "Authorization" } == false, "another port is another origin")
    }

    @Test("An endpoint without origin is on the base URL's server and gets the credentials")
    func endpointOnTheBaseOrigin() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        var configuration = testConfiguration()
        configuration.headers = ["X-API-Key": "k"]
        let app = try attachedApp(configuration, server: server)
        defer { app.source.stop() }
        #expect(app.source.waitUntilStreaming(timeout: .seconds(10)))
        let (endpoint, stream) = server.state.withLock {
            ($0.streamEndpoints.first, $0.requests.first { $0.method == "GET" })
        }
        #expect(endpoint?.host == "ofrep.test" && endpoint?.port == 8016 && endpoint?.basePath == "/ofrep/v1/events")
        #expect(stream?.headers.contains { $0.name == "X-API-Key" && $0.value == "k" } == true)
    }

    @Test("A stream that will not connect: the source polls instead, and keeps trying the stream with backoff")
    func refusedStreamFallsBackToPolling() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { $0.refusesStreams = true }
        var configuration = testConfiguration(poll: .milliseconds(30))
        configuration.maximumBackoff = .milliseconds(30)
        let (context, source) = try attachedApp(configuration, server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        try server.context.setOverride(keyNamed: "list.pageSize", to: 45)
        #expect(
            waitUntil("the polled change", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 45 })
        #expect(
            waitUntil("the stream tried again", timeout: .seconds(10)) {
                server.state.withLock { $0.streamConnections } >= 2
            })
        #expect(!source.isStreaming)
        // Each failed attempt sets lastError and the next answered poll clears it (the server
        // answers), so it is caught between the two.
        var streamError: String?
        #expect(
            waitUntil("the stream's failure reported", timeout: .seconds(10)) {
                streamError = source.lastError
                return streamError?.contains("the event stream on ofrep.test:8016: ") == true
            })
        #expect(streamError?.contains("/ofrep/v1/events") == false, "the stream URL is not logged")
        #expect(context.status.fleet?.isReachable == true, "the server itself answers")
    }

    @Test("Several refetch notices in one read cost one request, and unknown event types are ignored")
    func coalescesNotices() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let app = try attachedApp(server: server)
        defer { app.source.stop() }
        #expect(app.source.waitUntilStreaming(timeout: .seconds(10)))
        #expect(waitUntil("the post-connect fetch", timeout: .seconds(10)) { server.bulkRequests.count == 2 })
        let notice = server.service.changeEvent().streamText
        let unknown = "data: {\"type\": \"somethingNew\"}\n\ndata: not json\n\n"
        server.state.withLock { $0.pendingEvents = [unknown + notice + notice + notice] }
        #expect(waitUntil("the refetch", timeout: .seconds(10)) { server.bulkRequests.count == 3 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(server.bulkRequests.count == 3)
        server.state.withLock { $0.pendingEvents = [unknown] }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(server.bulkRequests.count == 3, "unknown events fetch nothing")
    }

    @Test("A 401 is reported and retried with backoff; the values stay")
    func unauthorized() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { $0.offersStream = false }
        let (context, source) = try attachedApp(testConfiguration(poll: .milliseconds(20)), server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        server.state.withLock { $0.scripted = Array(repeating: (401, [], ""), count: 3) }
        #expect(
            waitUntil("the refusal", timeout: .seconds(10)) {
                context.status.fleet?.lastError?.contains("refused the credentials (401") == true
            })
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        #expect(waitUntil("recovery", timeout: .seconds(10)) { context.status.fleet?.isReachable == true })
    }
}
