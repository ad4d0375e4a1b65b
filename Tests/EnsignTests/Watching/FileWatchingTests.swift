import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

// Serialized: the descriptor-leak test counts this process's inotify descriptors, which the
// other watcher tests would change if they ran at the same time.
@Suite("Watching deployment and definitions files", .serialized)
struct FileWatchingTests {
    static let definitions = "version: 1\nflags:\n  list.pageSize: { type: int, default: 20, maximum: 100 }\n"

    /// A fresh directory with a deployment file setting the page size to 30, and a context
    /// watching it. The directory lives as long as the fixture.
    struct Deployed {
        let directory: TemporaryDirectory
        let deployment: String
        let context: AppContext

        init() throws {
            directory = try TemporaryDirectory()
            deployment = directory.path + "/deploy/flags.yaml"
            try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 30\n")
            context = try FileWatchingTests.watchedContext(directory, deployment: deployment)
            // The watcher hashes the files on its queue after start; changes come after that.
            context.waitUntilWatching()
        }

        /// Saves `text` as the deployment file, as an editor would; the watcher may pick it up.
        func deploy(_ text: String) throws { try directory.write("deploy/flags.yaml", text) }

        /// Saves `text` as the deployment file and reloads now, without waiting for the watcher.
        func deployAndReload(_ text: String) throws {
            try deploy(text)
            context.reloadIfNeeded()
        }

        /// Saves `text` as the deployment file and reloads now, expecting the reload to fail: the
        /// context is degraded and keeps the last good page size, 30. Returns the diagnostics.
        func expectFailedReload(
            of text: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> [Diagnostic] {
            try deployAndReload(text)
            #expect(context.status.isDegraded, sourceLocation: sourceLocation)
            #expect(context.value(forKeyNamed: "list.pageSize") == 30, sourceLocation: sourceLocation)
            return context.status.diagnostics
        }

        /// Records each page size an observer is told of from now on, while the token lives.
        func recordPageSizes() -> (seen: Recorder<Int>, token: ObservationToken) {
            let seen = Recorder<Int>()
            return (seen, context.observe(FlagKey("list.pageSize", default: 0)) { seen.record($0) })
        }
    }

    /// A context over a definitions directory and one deployment file, watching both.
    static func watchedContext(_ directory: TemporaryDirectory, deployment: String) throws -> AppContext {
        try directory.write("flags/app.yaml", definitions)
        var configuration = AppContextConfiguration(
            definitionsDirectory: directory.path + "/flags", environment: "test",
            deploymentFiles: [deployment])
        configuration.watchDebounce = .milliseconds(20)
        configuration.pollInterval = .milliseconds(250)
        return try AppContext(configuration: configuration)
    }

    @Test("An editor's rename-replace of a deployment file is picked up")
    func renameReplace() async throws {
        let fixture = try Deployed()
        let (deployment, context) = (fixture.deployment, fixture.context)
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        try "flags:\n  list.pageSize: 40\n".write(toFile: deployment + ".swp", atomically: false, encoding: .utf8)
        #expect(rename(deployment + ".swp", deployment) == 0)
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 40))
    }

    @Test("A Kubernetes ConfigMap update (the ..data symlink swap) is picked up")
    func configMapSwap() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/..2026_01_01/flags.yaml", "flags:\n  list.pageSize: 30\n")
        try directory.link("config/..data", to: "..2026_01_01")
        try directory.link("config/flags.yaml", to: "..data/flags.yaml")
        let context = try Self.watchedContext(directory, deployment: directory.path + "/config/flags.yaml")
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        // What the kubelet does: write a new timestamped directory, point a temporary link at
        // it, and rename the link over ..data in one step.
        try directory.write("config/..2026_01_02/flags.yaml", "flags:\n  list.pageSize: 50\n")
        try directory.link("config/..data_tmp", to: "..2026_01_02")
        #expect(rename(directory.path + "/config/..data_tmp", directory.path + "/config/..data") == 0)
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 50))
    }

    @Test("A deleted deployment file is a removal, logged naming the file; re-creating it is picked up")
    func deleteAndRecreate() async throws {
        let fixture = try Deployed()
        let (directory, deployment, context) = (fixture.directory, fixture.deployment, fixture.context)
        try FileManager.default.removeItem(atPath: deployment)
        context.reloadIfNeeded()
        #expect(!context.status.isDegraded)
        #expect(context.value(forKeyNamed: "list.pageSize") == 20)
        let removal = context.changeLog.last
        #expect(removal?.changes.map(\.key) == ["list.pageSize"])
        #expect(
            removal?.diagnostics.contains { $0.location.file == deployment && $0.message.contains("deleted") } == true)
        try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 35\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 35))
        #expect(!context.status.isDegraded)
    }

    @Test("An emptied deployment file is a failed reload: the last good values stay, observers see nothing")
    func emptiedFile() async throws {
        let fixture = try Deployed()
        let context = fixture.context
        let (seen, token) = fixture.recordPageSizes()
        // An editor's truncate-then-write, caught between the two.
        let diagnostics = try fixture.expectFailedReload(of: "")
        #expect(diagnostics.contains { $0.message.contains("the file is empty") })
        try fixture.deployAndReload("# only a comment\n\n")
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
        try fixture.deployAndReload("flags:\n  list.pageSize: 45\n")
        #expect(!context.status.isDegraded)
        #expect(seen.values == [45])
        token.cancel()
    }

    @Test("A deleted environment file is a removal while the app runs, not an unknown environment")
    func deletedEnvironmentFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("flags/app.yaml", Self.definitions)
        try directory.write("flags/environments/staging.yaml", "flags:\n  list.pageSize: 33\n")
        let context = try AppContext.watchingOnDemand(
            AppContextConfiguration(definitionsDirectory: directory.path + "/flags", environment: "staging"))
        #expect(context.value(forKeyNamed: "list.pageSize") == 33)
        try FileManager.default.removeItem(atPath: directory.path + "/flags/environments/staging.yaml")
        context.reloadIfNeeded()
        #expect(!context.status.isDegraded)
        #expect(context.value(forKeyNamed: "list.pageSize") == 20)
    }

    @Test("A bad edit keeps the last good values; the next good edit applies with one notification")
    func badThenGood() async throws {
        let fixture = try Deployed()
        let context = fixture.context
        let (seen, token) = fixture.recordPageSizes()
        let diagnostics = try fixture.expectFailedReload(of: "flags:\n  list.pageSize: 500\n")
        #expect(diagnostics.first?.location.line == 2)
        try fixture.deploy("flags:\n  list.pageSize: 60\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 60))
        #expect(!context.status.isDegraded)
        #expect(seen.values == [60])
        _ = token
    }

    @Test("A deployment file edit reads only the overlays: the definitions and their layout stay")
    func overlayOnlyReload() async throws {
        let fixture = try Deployed()
        let (directory, context) = (fixture.directory, fixture.context)
        let layout = context.snapshot.layout
        try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 44\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 44))
        #expect(context.snapshot.layout === layout)
        #expect(context.changeLog.last?.cause == .reload(files: [fixture.deployment]))
        // A definitions edit reloads everything.
        try directory.write(
            "flags/app.yaml", "version: 1\nflags:\n  list.pageSize: { type: int, default: 20, maximum: 200 }\n")
        try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 150\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 150))
        #expect(context.snapshot.layout !== layout)
    }

    @Test("Rewriting the same bytes reloads nothing")
    func noOpChange() async throws {
        let fixture = try Deployed()
        let (directory, context) = (fixture.directory, fixture.context)
        // A first real change, so the watcher has the files' content hashes.
        try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 31\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 31))
        let reloads = context.rootStore.reloadCount.load(ordering: .relaxed)
        let logged = context.changeLog.count
        try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 31\n")  // new inode and mtime, same bytes
        context.reloadIfNeeded()
        #expect(context.rootStore.reloadCount.load(ordering: .relaxed) == reloads)
        #expect(context.changeLog.count == logged)
    }

    @Test("An external edit of the preferences file is applied and notified")
    func externalPreferencesEdit() async throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context(watching: true)
        try fixture.write(fixture.preferencesFile, "preferences:\n  list.rows: 77\n")
        #expect(await waitForObserver(of: "list.rows", in: context, toSee: 77))
        #expect(context.explain(keyNamed: "list.rows").layers.last?.source.layer == .preference)
    }

    @Test("The watcher stops with its context: no descriptors are left open (counted in a process of its own)")
    func noLeaks() throws {
        // Other tests here open and close watchers at the same time, so the count is taken in
        // a probe process where nothing else does.
        let scratch = try TemporaryDirectory()
        let result = try BuiltExecutable.run("EnsignTestProbe", ["watcher-descriptors", scratch.path])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let counts = result.output.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(counts.count == 3, "\(result.output)")
        #expect(counts[1] == counts[0] + 1, "one inotify descriptor while watching: \(result.output)")
        #expect(counts[2] == counts[0], "none left after: \(result.output)")
    }
}
