import EnsignHTTP
import EnsignOFREP
import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import EnsignTesting
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

@Suite("OFREP remote source")
struct RemoteSourceTests {
    @Test("The bulk evaluation becomes the fleet layer; polls carry If-None-Match and a 304 changes nothing")
    func deliversAndRevalidates() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { $0.offersStream = false }
        let context = try AppContext(definitions: appDefinitions)
        let source = try OFREPRemoteSource(configuration: testConfiguration(poll: .milliseconds(20)), transport: server)
        #expect(source.name == "ofrep \(testBaseURL)")
        context.attach(source)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        #expect(context.value(forKeyNamed: "list.sortOrder") == "name")
        let details = context.details(forKeyNamed: "list.pageSize")
        #expect(details.source.description.hasPrefix("fleet ofrep \(testBaseURL)"))
        #expect(source.currentValues().values["list.pageSize"]?.path == "ofrep:list.pageSize")
        // The key the app does not define is ignored and reported, not a crash.
        let undefined = source.problems.filter { $0.key == "list.serverOnly" }
        #expect(undefined.count == 1 && undefined.first?.severity == .warning)
        #expect(context.value(forKeyNamed: "list.serverOnly") == nil)
        #expect(waitUntil("a few polls", timeout: .seconds(10)) { server.bulkRequests.count >= 4 })
        let requests = server.bulkRequests
        let first = try JSONValue(jsonBytes: requests[0].body)
        #expect(first == ["context": ["targetingKey": "user-1", "plan": "pro"]])
        #expect(requests[0].headers.first { $0.name == "If-None-Match" } == nil, "nothing to revalidate yet")
        #expect(requests[1...].allSatisfy { request in request.headers.contains { $0.name == "If-None-Match" } })
        #expect(source.evaluationCount == 1, "304s deliver nothing")
        #expect(context.status.fleet?.isReachable == true)
        // A change on the server reaches the app at the next poll.
        try server.context.setOverride(keyNamed: "list.pageSize", to: 50)
        #expect(waitUntil("the change", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 50 })
    }

    @Test("An event stream's refetch notice brings a change at once, with the event's ETag in the query")
    func eventStream() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let (context, source) = try attachedApp(testConfiguration(poll: .seconds(3600)), server: server)
        defer { source.stop() }
        #expect(source.waitUntilStreaming(timeout: .seconds(10)))
        let heard = LockedState<[JSONValue?]>([])
        let token = context.observe(keysNamed: ["list.pageSize"]) { _ in
            heard.withLock { $0.append(context.value(forKeyNamed: "list.pageSize")) }
        }
        defer { token.cancel() }
        let before = server.bulkRequests.count
        try server.context.setOverride(keyNamed: "list.pageSize", to: 70)
        server.notifyChange()
        #expect(waitUntil("the streamed change", timeout: .seconds(10)) { heard.withLock { $0 } == [70] })
        // The catch-up fetch that follows the stream's connection may still be running when the
        // override lands (an address-sanitized run was that slow) and bring the change first;
        // the notice's own request, with its ETag, comes all the same.
        let noticePath = "/ofrep/v1/evaluate/flags?flagConfigEtag="
        #expect(
            waitUntil("the notice's request", timeout: .seconds(10)) {
                server.bulkRequests[before...].contains { $0.path.hasPrefix(noticePath) }
            })
        // The stream request asked for events, and no timer poll ran meanwhile.
        let stream = server.state.withLock { $0.requests.first { $0.method == "GET" } }
        #expect(stream?.headers.contains { $0.name == "Accept" && $0.value == "text/event-stream" } == true)
        #expect(server.state.withLock { $0.streamConnections } == 1)
    }

    @Test("A server that goes away: the last values stay, the status is degraded, and it catches up on return")
    func outageAndRecovery() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let (context, source) = try attachedApp(testConfiguration(poll: .milliseconds(20)), server: server)
        defer { source.stop() }
        #expect(source.waitUntilStreaming(timeout: .seconds(10)))
        server.state.withLock { $0.isDown = true }
        #expect(waitUntil("the outage", timeout: .seconds(10)) { context.status.fleet?.isReachable == false })
        #expect(context.status.isDegraded)
        #expect(context.status.fleet?.lastError?.contains("Connection refused") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 30, "the last good values stay in force")
        try server.context.setOverride(keyNamed: "list.pageSize", to: 40)
        server.state.withLock { $0.isDown = false }
        #expect(waitUntil("the catch-up", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 40 })
        #expect(waitUntil("healthy again", timeout: .seconds(10)) { context.status.fleet?.isReachable == true })
        #expect(source.waitUntilStreaming(timeout: .seconds(10)), "the stream reconnects")
    }

    @Test("A 429's Retry-After is obeyed before the next request", .blocksItsThread)
    func retryAfter() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { state in
            state.scripted = [(429, [("Retry-After", "1")], "")]
            state.offersStream = false
        }
        let context = try AppContext(definitions: appDefinitions)
        let source = try OFREPRemoteSource(configuration: testConfiguration(), transport: server)
        let start = ContinuousClock.now
        context.attach(source)
        defer { source.stop() }
        #expect(waitUntil("the refusal", timeout: .seconds(10)) { context.status.fleet?.isReachable == false })
        #expect(context.status.fleet?.lastError?.contains("429") == true)
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(ContinuousClock.now - start >= .milliseconds(950), "no request before Retry-After")
        #expect(server.bulkRequests.count == 2)
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
    }

    @Test("A flag the server could not evaluate is reported for that key alone; a code default is left out")
    func flagFailure() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let body = """
            {"flags": [{"key": "list.pageSize", "value": 40, "reason": "STATIC"},
              {"key": "list.sortOrder", "errorCode": "PARSE_ERROR", "errorDetails": "the rule is broken"},
              {"key": "list.showPending", "reason": "DEFAULT"},
              {"key": "list.elsewhere", "value": 3, "reason": "STATIC"}]}
            """
        server.state.withLock { $0.scripted = [(200, [("ETag", "\"x\"")], body)] }
        let (context, source) = try attachedApp(server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(context.value(forKeyNamed: "list.pageSize") == 40)
        #expect(context.value(forKeyNamed: "list.sortOrder") == "recent", "the app's default decides it")
        #expect(context.value(forKeyNamed: "list.showPending") == false, "the code default")
        let problems = source.currentValues().diagnostics
        #expect(problems.map(\.key) == ["list.sortOrder"])
        #expect(problems.first?.message.contains("PARSE_ERROR (the rule is broken)") == true)
        #expect(context.status.diagnostics.contains { $0.key == "list.sortOrder" && $0.severity == .error })
        #expect(source.problems.contains { $0.key == "list.elsewhere" && $0.severity == .warning })
        #expect(source.problems.contains { $0.key == "list.sortOrder" && $0.severity == .error })
    }

    @Test("A response that is not OFREP keeps the last good values and says why")
    func malformedResponse() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { $0.offersStream = false }
        let (context, source) = try attachedApp(testConfiguration(poll: .milliseconds(20)), server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        server.state.withLock { $0.scripted = [(200, [], "{\"flags\": 3}"), (200, [], "<html>")] }
        #expect(
            waitUntil("the refusal", timeout: .seconds(10)) { source.lastError?.contains("not valid OFREP") == true })
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        #expect(waitUntil("recovery", timeout: .seconds(10)) { context.status.fleet?.isReachable == true })
    }

    @Test(
        "No timer polling by default (ADR 0010); refresh() fetches at once and cuts a long backoff short when the server is back"
    )
    func refresh() throws {
        #expect(OFREPRemoteConfiguration(baseURL: testBaseURL, evaluationContext: [:]).pollInterval == nil)
        let server = try ServiceTransport(definitions: serverDefinitions)
        server.state.withLock { $0.offersStream = false }
        var configuration = testConfiguration(poll: nil)
        configuration.initialBackoff = .seconds(60)
        configuration.maximumBackoff = .seconds(60)
        let (context, source) = try attachedApp(configuration, server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        try server.context.setOverride(keyNamed: "list.pageSize", to: 35)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(server.bulkRequests.count == 1, "no polling")
        source.refresh()
        #expect(
            waitUntil("the refreshed value", timeout: .seconds(10)) {
                context.value(forKeyNamed: "list.pageSize") == 35
            })
        server.state.withLock { $0.isDown = true }
        source.refresh()
        #expect(waitUntil("the outage", timeout: .seconds(10)) { context.status.fleet?.isReachable == false })
        server.state.withLock { $0.isDown = false }
        source.refresh()
        #expect(
            waitUntil("back without the 60 s backoff", timeout: .seconds(10)) {
                context.status.fleet?.isReachable == true
            })
    }

    @Test(
        "Malformed base URLs are refused when the source is created; https is taken, and refused only by a transport without TLS"
    )
    func refusesBadURLs() throws {
        for url in ["flags.example:8016", "http://:80", "ftp://flags.example"] {
            #expect(throws: OFREPRemoteError.self) {
                _ = try OFREPRemoteSource(configuration: testConfiguration(baseURL: url))
            }
        }
        _ = try OFREPRemoteSource(configuration: testConfiguration(baseURL: "https://flags.example"))
        let plain = try ServiceTransport(definitions: serverDefinitions, supportsTLS: false)
        #expect {
            _ = try OFREPRemoteSource(
                configuration: testConfiguration(baseURL: "https://flags.example"), transport: plain)
        } throws: { error in
            "\(error)".contains("https needs a transport with TLS")
                && "\(error)".contains("OFREPRemoteSource(configuration:)")
        }
    }

    @Test("The source keeps the value provider contract, an outage of its server included", .blocksItsThread)
    func compatibility() throws {
        let server = try ServiceTransport(definitions: serverDefinitions)
        let source = try OFREPRemoteSource(configuration: testConfiguration(poll: .milliseconds(50)), transport: server)
        let test = ValueProviderCompatibilityTest(definitions: appDefinitions, quietPeriod: .milliseconds(300))
        let outage: (Bool) -> Void = { isOut in server.state.withLock { $0.isDown = isOut } }
        try test.check(source, outage: outage) { round in
            switch round {
            case .attached:
                try server.context.setOverride(keyNamed: "list.sortOrder", to: "recent")
                server.notifyChange()
                return ["list.sortOrder": "recent", "list.pageSize": 30]
            case .stopped:
                try server.context.setOverride(keyNamed: "list.pageSize", to: 60)
                server.notifyChange()
                return ["list.pageSize": 60]
            }
        }
    }
}
