import EnsignOFREP
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignRemote

@Suite("OFREP remote source's offline cache")
struct EvaluationCacheTests {
    /// Runs a source against `server` until it has synced once and written its cache, then stops it.
    private static func warmCache(_ server: ServiceTransport, cacheFile: String) throws {
        let app = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        #expect(app.source.waitUntilSynced(timeout: .seconds(10)))
        app.source.stop()
        #expect(FileManager.default.fileExists(atPath: cacheFile))
    }

    @Test("An offline start has the last known values as attach returns, then catches up when the server returns")
    func offlineStart() throws {
        let cached = try CachedServer(pageSize: 45)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        var status = stat()
        #expect(stat(cacheFile, &status) == 0 && status.st_mode & 0o777 == 0o600, "the cache is private")
        #expect(stat(cached.stateDirectory, &status) == 0 && status.st_mode & 0o777 == 0o700)
        let text = try String(contentsOfFile: cacheFile, encoding: .utf8)
        #expect(!text.contains("user-1"), "the targeting key is not kept, only a hash")
        #expect(!text.contains("eventStreams"), "nor the event stream URL")

        server.state.withLock { $0.isDown = true }
        try server.context.setOverride(keyNamed: "list.pageSize", to: 55)
        let (context, source) = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 45, "the cached value, at once")
        #expect(context.details(forKeyNamed: "list.pageSize").source.description.contains("(cached)"))
        #expect(source.isServingCache)
        #expect(waitUntil("the outage report", timeout: .seconds(10)) { context.status.fleet?.isReachable == false })
        #expect(context.value(forKeyNamed: "list.pageSize") == 45)

        server.state.withLock { $0.isDown = false }
        #expect(waitUntil("the catch-up", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 55 })
        #expect(!source.isServingCache)
        #expect(!context.details(forKeyNamed: "list.pageSize").source.description.contains("(cached)"))
        let first = server.bulkRequests.first { $0.headers.contains { $0.name == "If-None-Match" } }
        #expect(first != nil, "the cache's ETag makes the first request after the start conditional")
    }

    /// Waits until the cache file holds `text`, as a source rewrites it after the server's change.
    private static func waitUntilCacheHolds(
        _ text: String, in cacheFile: String, _ what: String, fileID: String = #fileID, line: Int = #line
    ) -> Bool {
        waitUntil(what, timeout: .seconds(10), fileID: fileID, line: line) {
            (try? String(contentsOfFile: cacheFile, encoding: .utf8))?.contains(text) == true
        }
    }

    /// A server (its `list.pageSize` overridden to `pageSize`, if given; offering an event
    /// stream or not), and a cache file in a directory of its own that a source has written
    /// from it.
    private struct CachedServer {
        let directory: TemporaryDirectory
        let cacheFile: String
        let server: ServiceTransport
        /// The directory the cache file is in.
        var stateDirectory: String { directory.path + "/state" }

        init(pageSize: Int? = nil, offersStream: Bool = true) throws {
            directory = try TemporaryDirectory()
            cacheFile = directory.path + "/state/remote-flags.json"
            server = try ServiceTransport(definitions: serverDefinitions)
            server.state.withLock { $0.offersStream = offersStream }
            if let pageSize { try server.context.setOverride(keyNamed: "list.pageSize", to: .int(pageSize)) }
            try EvaluationCacheTests.warmCache(server, cacheFile: cacheFile)
        }
    }

    /// A source in `mode` over `server`, attached to a fresh context, with the cache at `cacheFile`.
    private func attached(
        _ mode: OFREPCacheMode, _ server: ServiceTransport, cacheFile: String
    ) throws -> (AppContext, OFREPRemoteSource) {
        var configuration = testConfiguration(cacheFile: cacheFile)
        configuration.cacheMode = mode
        return try attachedApp(configuration, server: server)
    }

    @Test("network-first (ADR 0009): the server's values as attach returns, never the cache's first")
    func networkFirstOnline() throws {
        let cached = try CachedServer(pageSize: 45)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        try server.context.setOverride(keyNamed: "list.pageSize", to: 55)
        let (context, source) = try attached(.networkFirst, server, cacheFile: cacheFile)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 55, "fresh at once, no cached flash")
        #expect(!source.isServingCache)
        #expect(!context.details(forKeyNamed: "list.pageSize").source.description.contains("(cached)"))
        #expect(Self.waitUntilCacheHolds("55", in: cacheFile, "the cache rewritten"))
    }

    @Test("network-first offline: the cache as attach returns after the failed request, then the server's values")
    func networkFirstOffline() throws {
        let cached = try CachedServer(pageSize: 45)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        let before = server.bulkRequests.count
        server.state.withLock { $0.isDown = true }
        try server.context.setOverride(keyNamed: "list.pageSize", to: 55)
        let (context, source) = try attached(.networkFirst, server, cacheFile: cacheFile)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 45, "the cached value once the server is unreachable")
        #expect(source.isServingCache)
        #expect(context.status.fleet?.isReachable == false)
        #expect(server.bulkRequests.count == before, "the refused connection never reached it")
        server.state.withLock { $0.isDown = false }
        #expect(waitUntil("the catch-up", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 55 })
        #expect(!source.isServingCache)
    }

    @Test("network-first refused (401, 403, 400): the cache is not used, the refusal is reported")
    func networkFirstRefused() throws {
        let cached = try CachedServer(pageSize: 45)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        for status in [401, 403, 400] {
            server.state.withLock { $0.scripted = [(status, [], "{}")] }
            let (context, source) = try attached(.networkFirst, server, cacheFile: cacheFile)
            #expect(context.value(forKeyNamed: "list.pageSize") == 10, "\(status): the app's default, not the cache")
            #expect(!source.isServingCache)
            #expect(context.status.fleet?.lastError?.isEmpty == false, "\(status)")
            source.stop()
        }
        // A 503 is the server's trouble, not the app's: the cache covers it.
        server.state.withLock { $0.scripted = [(503, [], "")] }
        let (context, source) = try attached(.networkFirst, server, cacheFile: cacheFile)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 45)
        #expect(source.isServingCache)
    }

    @Test("disabled: the cache file is neither read nor written")
    func cacheDisabled() throws {
        let cached = try CachedServer(pageSize: 45)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        let written = try String(contentsOfFile: cacheFile, encoding: .utf8)
        server.state.withLock { $0.isDown = true }
        let (offline, offlineSource) = try attached(.disabled, server, cacheFile: cacheFile)
        #expect(offline.value(forKeyNamed: "list.pageSize") == 10, "not read")
        offlineSource.stop()
        server.state.withLock { $0.isDown = false }
        try server.context.setOverride(keyNamed: "list.pageSize", to: 55)
        let (online, source) = try attached(.disabled, server, cacheFile: cacheFile)
        defer { source.stop() }
        #expect(
            waitUntil("the server's value", timeout: .seconds(10)) { online.value(forKeyNamed: "list.pageSize") == 55 })
        #expect(try String(contentsOfFile: cacheFile, encoding: .utf8) == written, "not written")
    }

    @Test("A cache whose evaluation is the server's current one is confirmed by a 304 and relabelled live")
    func confirmedByNotModified() throws {
        let cached = try CachedServer(offersStream: false)
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        let (context, source) = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        defer { source.stop() }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(source.evaluationCount == 0, "a 304: nothing new")
        #expect(!source.isServingCache)
        #expect(context.details(forKeyNamed: "list.pageSize").source.description == "fleet ofrep \(testBaseURL)")
    }

    @Test("A cache of another context or server is not used")
    func otherContext() throws {
        // The cache is written for the default targeting key, user-1.
        let cached = try CachedServer()
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        server.state.withLock { $0.isDown = true }
        let (context, source) = try attachedApp(
            testConfiguration(cacheFile: cacheFile, targetingKey: "user-2"), server: server)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 10, "the app's own default")
        #expect(source.currentValues().values.isEmpty)
        #expect(source.currentValues().diagnostics.isEmpty, "not a problem: just not this context's")
    }

    @Test("A corrupt cache is set aside, reported and not used; the next good evaluation replaces it")
    func corruptCache() throws {
        let cached = try CachedServer()
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        let good = try String(contentsOfFile: cacheFile, encoding: .utf8)
        try String(good.prefix(good.count / 2)).write(toFile: cacheFile, atomically: false, encoding: .utf8)
        server.state.withLock { $0.isDown = true }
        let (context, source) = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        defer { source.stop() }
        #expect(context.value(forKeyNamed: "list.pageSize") == 10, "nothing from the broken file")
        let problems = source.currentValues().diagnostics
        #expect(problems.count == 1 && problems.first?.severity == .warning)
        #expect(problems.first?.message.contains("kept aside as \(cacheFile).corrupt-") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: cached.stateDirectory)
        #expect(names.contains { $0.hasPrefix("remote-flags.json.corrupt-") })
        #expect(!names.contains("remote-flags.json"))
        server.state.withLock { $0.isDown = false }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        #expect(source.problems.contains { $0.message.contains("kept aside") }, "reported with the first delivery")
        #expect(FileManager.default.fileExists(atPath: cacheFile))
    }

    @Test("A cache directory other users can write to is refused: nothing is read or written there")
    func unsafeDirectory() throws {
        let cached = try CachedServer()
        let (cacheFile, server) = (cached.cacheFile, cached.server)
        defer { withExtendedLifetime(cached) {} }
        chmod(cached.stateDirectory, 0o777)
        server.state.withLock { $0.isDown = true }
        let (context, source) = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        #expect(context.value(forKeyNamed: "list.pageSize") == 10, "the planted-file risk outweighs the cache")
        let problems = source.currentValues().diagnostics
        #expect(problems.first?.severity == .error)
        #expect(problems.first?.message.contains("other users can write to it") == true)
        try FileManager.default.removeItem(atPath: cacheFile)
        server.state.withLock { $0.isDown = false }
        #expect(source.waitUntilSynced(timeout: .seconds(10)))
        source.stop()
        #expect(!FileManager.default.fileExists(atPath: cacheFile), "no write into the refused directory")
        #expect(source.problems.contains { $0.message.contains("could not be written") })
    }

    @Test("A full disk: the values are in force, the failure is reported, and the old cache stays whole")
    func fullDisk() throws {
        let cached = try CachedServer()
        let (cacheFile, server, state) = (cached.cacheFile, cached.server, cached.stateDirectory)
        defer { withExtendedLifetime(cached) {} }
        let before = try String(contentsOfFile: cacheFile, encoding: .utf8)
        FileSystemFaults.inject(ENOSPC, under: state)
        defer { FileSystemFaults.clear(under: state) }
        try server.context.setOverride(keyNamed: "list.pageSize", to: 65)
        let (context, source) = try attachedApp(testConfiguration(cacheFile: cacheFile), server: server)
        defer { source.stop() }
        #expect(waitUntil("the new value", timeout: .seconds(10)) { context.value(forKeyNamed: "list.pageSize") == 65 })
        // The source lists the problems in force a moment after the context has the values.
        #expect(
            waitUntil("the failure reported", timeout: .seconds(10)) {
                source.problems.contains { $0.severity == .warning && $0.message.contains("No space left") }
            })
        #expect(try String(contentsOfFile: cacheFile, encoding: .utf8) == before, "the old cache, whole")
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(!names.contains { $0.contains(".tmp-") }, "no temporary file left behind")
        FileSystemFaults.clear(under: state)
        try server.context.setOverride(keyNamed: "list.pageSize", to: 75)
        server.notifyChange()
        #expect(Self.waitUntilCacheHolds("75", in: cacheFile, "the next write"))
    }

    @Test("An entry older than its time to live is not served")
    func timeToLive() throws {
        let directory = try TemporaryDirectory()
        let cache = EvaluationCacheFile(
            path: directory.path + "/state/cache.json", cacheKey: "k", timeToLive: .seconds(60))
        let evaluation = CachedEvaluation(
            response: OFREPBulkEvaluationResponse(
                flags: [.success(OFREPEvaluationSuccess(key: "a", value: 1, reason: "STATIC"))]),
            etag: "\"1\"", writtenAt: WallClockTime(secondsSince1970: 1_000_000))
        try cache.store(evaluation)
        #expect(cache.load(now: WallClockTime(secondsSince1970: 1_000_059)).0 == evaluation)
        #expect(cache.load(now: WallClockTime(secondsSince1970: 1_000_061)).0 == nil)
        let other = EvaluationCacheFile(path: cache.path, cacheKey: "other", timeToLive: .seconds(60))
        #expect(other.load(now: WallClockTime(secondsSince1970: 1_000_001)).0 == nil)
    }

    @Test(
        "SIGKILL in the middle of cache writes leaves the old file or the new one, never a broken one", .blocksItsThread
    )
    func killedMidWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/cache.json"
        let cache = EvaluationCacheFile(
            path: path, cacheKey: CachedEvaluation.cacheKey(baseURL: "http://probe:1", context: ["targetingKey": "k"]),
            timeToLive: .seconds(3600))
        for round in 0..<12 {
            // Each probe counts from 1: the last round's file must not stand for this one's writes.
            unlink(path)
            let output = try directory.write("probe-\(round).out", "")
            let process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "EnsignRemoteProbe"), ["write-cache", path], output: output,
                errors: output)
            // Past the first replacement, so the kill lands among writes however slow the
            // machine (a sanitized run once wrote one evaluation in the whole random wait).
            #expect(
                waitUntil("a second write", timeout: .seconds(30)) { (Self.generation(in: cache) ?? 0) >= 2 })
            Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.05))
            let seen = Self.generation(in: cache) ?? 0
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let (loaded, problems) = cache.load()
            #expect(problems.isEmpty, "round \(round): \(problems)")
            let generation = loaded.flatMap(Self.generation(of:))
            #expect(generation != nil, "round \(round): a whole evaluation")
            #expect(loaded?.response.flags.count == 301)
            #expect((generation ?? 0) >= seen, "round \(round): a write already in place is never lost")
        }
    }

    /// The generation the probe wrote into `evaluation`, its first flag's value.
    static func generation(of evaluation: CachedEvaluation) -> Int? {
        guard case .success(let success) = evaluation.response.flags.first else { return nil }
        return success.value?.intValue
    }

    /// The generation in the cache file now, if it holds a whole evaluation.
    static func generation(in cache: EvaluationCacheFile) -> Int? {
        cache.load().0.flatMap(generation(of:))
    }
}
