import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign

/// The context's own files reach observers from its watcher, and its own writes to the
/// persisted files are not read back.
@Suite("Files reach observers from the watcher")
struct FileReloadPathTests {
    /// The list sample in a definitions directory with a staging overlay (`list.sortOrder: name`)
    /// and a deployment file (`list.pageSize: 50`), watched.
    private struct StagingFiles {
        let directory: TemporaryDirectory
        let deployment: String

        init() throws {
            directory = try TemporaryDirectory()
            try directory.write("flags/list.yaml", ListFixture.definitions)
            try directory.write("flags/environments/staging.yaml", "flags:\n  list.sortOrder: name\n")
            deployment = try directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 50\n")
        }

        func context() throws -> AppContext {
            var configuration = AppContextConfiguration(
                definitionsDirectory: directory.path + "/flags", environment: "staging", deploymentFiles: [deployment])
            configuration.watchDebounce = .milliseconds(10)
            configuration.pollInterval = .milliseconds(100)
            let context = try AppContext(configuration: configuration)
            context.waitUntilWatching()
            return context
        }
    }

    @Test("Each file layer's value carries its layer and position")
    func layersAndPositions() throws {
        let files = try StagingFiles()
        let context = try files.context()
        #expect(context.loadDiagnostics.isEmpty)
        #expect(
            context.details(forKeyNamed: "list.pageSize").source.description == "deployment \(files.deployment):2:18")
        #expect(context.details(forKeyNamed: "list.sortOrder").source.layer == .environment)
        #expect(context.details(forKeyNamed: "list.showPending").source.layer == .definition)
    }

    @Test(
        "A deployment file edit reaches exactly its key's observers, in one transaction caused by the reload",
        .blocksItsThread)
    func editReachesObservers() async throws {
        let files = try StagingFiles()
        let context = try files.context()
        let batches = Recorder<ChangeBatch>()
        let token = context.observeAll { batches.record($0) }
        defer { token.cancel() }
        try files.directory.write("deploy/flags.yaml", "flags:\n  list.pageSize: 60\n")
        #expect(await waitForObserver(of: "list.pageSize", in: context, toSee: 60))
        let seen = batches.values
        #expect(seen.count == 1, "\(seen)")
        #expect(seen.first?.keys == ["list.pageSize"])
        if case .reload(let changed) = seen.first?.cause {
            #expect(changed == [files.deployment])
        } else {
            Issue.record("the transaction's cause is \(String(describing: seen.first?.cause)), not the reload")
        }
        #expect(context.value(forKeyNamed: "list.sortOrder") == "name")
    }

    @Test("A persisted override is not read back as a reload")
    func ownWriteIsNotReadBack() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        let before = context.reloadCounts.reloads
        for size in [30, 40, 50] {
            try context.setOverride(keyNamed: "list.pageSize", to: .int(size), persist: true)
            context.reloadIfNeeded()
        }
        #expect(try fixture.read(fixture.overridesFile).contains("list.pageSize: 50"))
        #expect(context.reloadCounts.reloads == before, "the context read its own writes back")
        #expect(!context.changeLog.contains { if case .reload = $0.cause { true } else { false } })
        #expect(context.details(forKeyNamed: "list.pageSize").source.actor == "code")
    }

    @Test(
        "Persisted writes racing the watcher's checks are never read back, and the last one is in force",
        .blocksItsThread)
    func ownWritesRacingChecks() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        let before = context.reloadCounts.reloads
        let writing = AtomicCounter()
        // A check at every moment of a write: before its rename, between the rename and its
        // end, after it, and while the next one is announced.
        let checker = JoinableThread(name: "test-checker") {
            while writing.count == 0 { context.reloadIfNeeded() }
        }
        for size in 5...100 { try context.setOverride(keyNamed: "list.pageSize", to: .int(size), persist: true) }
        writing.increment()
        checker.join()
        context.reloadIfNeeded()
        #expect(context.reloadCounts.reloads == before, "the context read its own writes back")
        #expect(context.value(forKeyNamed: "list.pageSize") == 100)
        #expect(try fixture.read(fixture.overridesFile).contains("list.pageSize: 100"))
    }

    @Test("An edit of the overrides file after the context's own write is applied, even one restoring earlier bytes")
    func editAfterOwnWriteIsApplied() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        try context.setOverride(keyNamed: "list.pageSize", to: 30, persist: true)
        let written = try fixture.read(fixture.overridesFile)
        try fixture.write(fixture.overridesFile, written + "  list.showPending: true\n")
        context.reloadIfNeeded()
        #expect(context.value(forKeyNamed: "list.showPending") == true)
        // Another process takes its key out again: the file holds the context's own bytes,
        // which are news now (the context had applied the other key).
        try fixture.write(fixture.overridesFile, written)
        context.reloadIfNeeded()
        #expect(context.value(forKeyNamed: "list.showPending") == false)
        #expect(context.value(forKeyNamed: "list.pageSize") == 30)
    }

    @Test("A write that carried another process's change to disk is read back, so the change applies")
    func foldedChangeIsApplied() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        try context.setOverride(keyNamed: "list.pageSize", to: 30, persist: true)
        // Another process adds a key, and before the watcher looks, the context writes again:
        // its write merges the other key in, so the file is not the context's alone.
        try fixture.write(fixture.overridesFile, try fixture.read(fixture.overridesFile) + "  list.showPending: true\n")
        try context.setOverride(keyNamed: "list.pageSize", to: 40, persist: true)
        #expect(try fixture.read(fixture.overridesFile).contains("list.showPending: true"))
        context.reloadIfNeeded()
        #expect(context.value(forKeyNamed: "list.showPending") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 40)
    }
}
