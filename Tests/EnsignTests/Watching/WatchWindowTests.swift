import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Every file that changed before one check is applied, in one transaction.
@Suite("Files that change in one watch window")
struct WatchWindowTests {
    /// The change batches `context` delivers while `change` runs.
    static func batches(of context: AppContext, during change: () throws -> Void) rethrows -> [ChangeBatch] {
        let batches = Recorder<ChangeBatch>()
        let token = context.observeAll { batches.record($0) }
        defer { token.cancel() }
        try change()
        return batches.values
    }

    /// Turns dark mode on in the preferences file and rewrites the page size's default in the
    /// definitions as `pageSizeDefault`: two files, changed in one window.
    static func editPreferencesAndDefinitions(_ fixture: PersistenceFixture, pageSizeDefault: String) throws {
        try fixture.write(fixture.preferencesFile, "preferences:\n  appearance.darkMode: true\n")
        try fixture.write(
            fixture.flags + "/app.yaml",
            PersistenceFixture.definitions.replacingOccurrences(of: "default: 20", with: "default: \(pageSizeDefault)"))
    }

    @Test("A preferences edit and a definitions edit in one window are both applied, in one transaction")
    func preferencesAndDefinitions() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        let batches = try Self.batches(of: context) {
            try Self.editPreferencesAndDefinitions(fixture, pageSizeDefault: "25")
            context.reloadIfNeeded()
        }
        #expect(context.value(forKeyNamed: "appearance.darkMode") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 25)
        #expect(batches.count == 1)
        #expect(Set(batches.first?.keys ?? []) == ["appearance.darkMode", "list.pageSize"])
    }

    @Test("A preferences edit and a deployment file edit in one window are both applied, in one transaction")
    func preferencesAndDeployment() throws {
        let fixture = try PersistenceFixture()
        let deployment = fixture.directory.path + "/deploy/flags.yaml"
        try fixture.write(deployment, "flags:\n  list.pageSize: 30\n")
        let context = try fixture.onDemandContext(deploymentFiles: [deployment])
        let batches = try Self.batches(of: context) {
            try fixture.write(fixture.preferencesFile, "preferences:\n  appearance.darkMode: true\n")
            try fixture.write(deployment, "flags:\n  list.pageSize: 40\n")
            context.reloadIfNeeded()
        }
        #expect(context.value(forKeyNamed: "appearance.darkMode") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 40)
        #expect(batches.map { Set($0.keys) } == [["appearance.darkMode", "list.pageSize"]])
    }

    @Test("An overrides edit and a preferences edit in one window are both applied, in one transaction")
    func overridesAndPreferences() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        let batches = try Self.batches(of: context) {
            try fixture.write(fixture.preferencesFile, "preferences:\n  list.rows: 12\n")
            try fixture.write(fixture.overridesFile, "flags:\n  list.showPending: true\n")
            context.reloadIfNeeded()
        }
        #expect(context.value(forKeyNamed: "list.rows") == 12)
        #expect(context.value(forKeyNamed: "list.showPending") == true)
        #expect(batches.map { Set($0.keys) } == [["list.rows", "list.showPending"]])
    }

    @Test("A broken definitions edit fails alone: the preferences edit of the same window is applied")
    func brokenDefinitionsDoNotBlockPreferences() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.onDemandContext()
        try Self.editPreferencesAndDefinitions(fixture, pageSizeDefault: "twenty")
        context.reloadIfNeeded()
        #expect(context.value(forKeyNamed: "appearance.darkMode") == true)
        #expect(context.value(forKeyNamed: "list.pageSize") == 20)
        #expect(context.status.isDegraded)
        try fixture.write(fixture.flags + "/app.yaml", PersistenceFixture.definitions)
        context.reloadIfNeeded()
        #expect(!context.status.isDegraded)
    }
}
