import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

@Suite("OFREP remote source against ensign serve")
struct RemoteServeTests {
    @Test(
        "Live changes over SSE (or polling), a killed and restarted server, then an offline start from the cache",
        .blocksItsThread,
        arguments: RemoteTransportKind.allCases)
    func endToEnd(transport: RemoteTransportKind) throws {
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags/list.yaml", servedFlags)
        let flags = directory.path + "/flags"
        let cacheFile = directory.path + "/state/remote-flags.json"
        var server = try ServeProcess(flags: flags)
        defer { server.kill() }
        let context = try AppContext(definitions: appDefinitions)
        let source = try transport.makeSource(testConfiguration(cacheFile: cacheFile, baseURL: server.baseURL))
        context.attach(source)
        defer { source.stop() }
        #expect(transport.waitUntilLive(source, timeout: .seconds(10)), "ensign serve offers its event stream")
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        let heard = LockedState<[JSONValue?]>([])
        let token = context.observe(keysNamed: ["list.pageSize"]) { _ in
            heard.withLock { $0.append(context.value(forKeyNamed: "list.pageSize")) }
        }
        defer { token.cancel() }

        // `ensign set` on the server reaches the app's observers through the event stream.
        let set = try server.set("list.pageSize", "50")
        #expect(set.status == 0, "\(set.errors)")
        #expect(waitUntil("ensign set", timeout: .seconds(10)) { heard.withLock { $0 } == [50] })
        // So does an edit of the server's flags file.
        try servedFlags.replacingOccurrences(of: "default: name", with: "default: recent")
            .write(toFile: flagsFile, atomically: true, encoding: .utf8)
        #expect(
            waitUntil("the file edit", timeout: .seconds(10)) {
                context.value(forKeyNamed: "list.sortOrder") == "recent"
            })

        // Killed: the values stay, the status says why.
        let port = server.port
        server.kill()
        #expect(waitUntil("the outage", timeout: .seconds(10)) { context.status.fleet?.isReachable == false })
        #expect(context.value(forKeyNamed: "list.pageSize") == 50)
        // Restarted on the same port: the source reconnects and catches up (the override died with the server).
        server = try ServeProcess(flags: flags, port: port)
        #expect(waitUntil("the catch-up", timeout: .seconds(20)) { context.value(forKeyNamed: "list.pageSize") == 30 })
        #expect(waitUntil("healthy again", timeout: .seconds(10)) { context.status.fleet?.isReachable == true })
        #expect(transport.waitUntilLive(source, timeout: .seconds(10)))
        #expect(context.value(forKeyNamed: "list.sortOrder") == "recent")
        source.stop()
        server.kill()

        // An offline start: the cache has the last evaluation, in force as attach returns.
        let offline = try AppContext(definitions: appDefinitions)
        let restarted = try transport.makeSource(testConfiguration(cacheFile: cacheFile, baseURL: server.baseURL))
        offline.attach(restarted)
        defer { restarted.stop() }
        #expect(offline.value(forKeyNamed: "list.pageSize") == 30)
        #expect(offline.value(forKeyNamed: "list.sortOrder") == "recent")
        #expect(restarted.isServingCache)
        #expect(waitUntil("the offline report", timeout: .seconds(10)) { offline.status.fleet?.isReachable == false })
        // The server comes back with a change; the offline app catches up.
        try servedFlags.replacingOccurrences(of: "default: 30", with: "default: 35")
            .write(toFile: flagsFile, atomically: true, encoding: .utf8)
        server = try ServeProcess(flags: flags, port: port)
        #expect(waitUntil("the catch-up", timeout: .seconds(20)) { offline.value(forKeyNamed: "list.pageSize") == 35 })
        #expect(!restarted.isServingCache)
    }
}
