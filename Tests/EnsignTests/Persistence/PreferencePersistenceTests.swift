import EnsignTestSupport
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

@Suite("Persisted preferences and overrides")
struct PreferencePersistenceTests {
    @Test("Every value type survives a write and a fresh load")
    func roundTrip() throws {
        let fixture = try PersistenceFixture()
        do {
            let context = try fixture.context()
            try context.setPreference(keyNamed: "appearance.darkMode", to: true)
            try context.setPreference(keyNamed: "appearance.fontScale", to: 1.25)
            try context.setPreference(keyNamed: "list.rows", to: 42)
            try context.setPreference(keyNamed: "locale.language", to: "fr")
            try context.setPreference(keyNamed: "layout.columns", to: ["left": 3, "right": ["a", "b"]])
            try context.setOverride(keyNamed: "list.pageSize", to: 55, actor: "menu", persist: true)
            try context.flush()
        }
        let reloaded = try fixture.context()
        #expect(reloaded.value(forKeyNamed: "appearance.darkMode") == true)
        #expect(reloaded.value(forKeyNamed: "appearance.fontScale") == 1.25)
        #expect(reloaded.value(forKeyNamed: "list.rows") == 42)
        #expect(reloaded.value(forKeyNamed: "locale.language") == "fr")
        #expect(reloaded.value(forKeyNamed: "layout.columns") == ["left": 3, "right": ["a", "b"]])
        #expect(reloaded.value(forKeyNamed: "list.pageSize") == 55)
        let explanation = reloaded.explain(keyNamed: "list.pageSize")
        #expect(explanation.layers.last?.source.actor == ContextLoader.overridesActor)
        #expect(explanation.layers.last?.source.location?.file == fixture.overridesFile)
    }

    @Test("Invalid preference values are refused with a clear error and never written")
    func invalidValueRefused() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        #expect(throws: ContextWriteError.self) { try context.setPreference(keyNamed: "locale.language", to: "xx") }
        #expect(throws: ContextWriteError.self) { try context.setPreference(keyNamed: "list.rows", to: "ten") }
        try context.flush()
        #expect(!FileManager.default.fileExists(atPath: fixture.preferencesFile))
    }

    @Test("A preference write returns once the file holds it, also with writers on other threads")
    func acknowledgedWritesAreOnDisk() async throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        let keys = ["list.rows", "appearance.fontScale", "appearance.darkMode", "locale.language"]
        let values: [@Sendable (Int) -> JSONValue] = [
            { .int($0) }, { .double(Double($0) / 4) }, { .bool($0 % 2 == 0) }, { .string(["en", "fr", "de"][$0 % 3]) },
        ]
        let missing = Recorder<String>()
        let path = fixture.preferencesFile
        await withTaskGroup(of: Void.self) { group in
            for (key, value) in zip(keys, values) {
                group.addTask {
                    for round in 1...40 {
                        do {
                            try context.setPreference(keyNamed: key, to: value(round))
                        } catch {
                            missing.record("\(key) round \(round): \(error)")
                            continue
                        }
                        // Only this task writes `key`, so the file must hold this value now.
                        let onDisk = try? YAMLParser().documents(contentsOf: path).first?
                            .entry(forKey: "preferences")?.value.entry(forKey: key)?.value
                        if onDisk.map(JSONValue.init) != value(round) { missing.record("\(key) round \(round)") }
                    }
                }
            }
        }
        #expect(missing.values.isEmpty, "acknowledged but not on disk: \(missing.values.prefix(5))")
        let writes = try #require(context.rootStore.preferencesFile?.writeCount)
        #expect(writes <= keys.count * 40, "more disk writes than acknowledged writes")
    }

    @Test("A persisted write that cannot be saved is an error to the caller; the status shows it until a save works")
    func failedSave() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        // The state directory's path is taken by a file, so nothing can be saved there.
        let stateDirectory = fixture.stateDirectory
        try "in the way".write(toFile: stateDirectory, atomically: false, encoding: .utf8)
        #expect {
            try context.setOverride(keyNamed: "list.pageSize", to: 55, persist: true)
        } throws: { error in
            guard case .notPersisted(let key, let path, _)? = error as? ContextWriteError else { return false }
            return key == "list.pageSize" && path == fixture.overridesFile
        }
        #expect(throws: ContextWriteError.self) { try context.setPreference(keyNamed: "list.rows", to: 12) }
        // In force for this run, and the status says it is not saved.
        #expect(context.value(forKeyNamed: "list.pageSize") == 55)
        #expect(context.status.isDegraded)
        #expect(context.status.diagnostics.contains { $0.message.contains("cannot save \(fixture.overridesFile)") })
        try FileManager.default.removeItem(atPath: stateDirectory)
        try context.setOverride(keyNamed: "list.pageSize", to: 56, persist: true)
        try context.setPreference(keyNamed: "list.rows", to: 13)
        #expect(!context.status.isDegraded)
        #expect(try fixture.read(fixture.overridesFile).contains("list.pageSize: 56"))
    }

    @Test("A corrupt preferences file written while the app runs keeps the last good values and is not set aside")
    func corruptWhileRunning() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        try context.setPreference(keyNamed: "list.rows", to: 12)
        try fixture.write(fixture.preferencesFile, "preferences: [unclosed\n")
        context.reload()
        #expect(context.value(forKeyNamed: "list.rows") == 12)
        #expect(context.status.isDegraded)
        #expect(fixture.stateFiles(containing: ".corrupt-").isEmpty)
        try fixture.write(fixture.preferencesFile, "")
        context.reload()
        #expect(context.value(forKeyNamed: "list.rows") == 12)
        try fixture.write(fixture.preferencesFile, "preferences:\n  list.rows: 14\n")
        context.reload()
        #expect(context.value(forKeyNamed: "list.rows") == 14)
        #expect(!context.status.isDegraded)
    }

    @Test("Persisted overrides are re-applied at start-up, and reset removes them from the file")
    func persistedOverrides() throws {
        let fixture = try PersistenceFixture()
        do {
            let context = try fixture.context()
            try context.setOverride(keyNamed: "list.showPending", to: true, persist: true)
            try context.setOverride(keyNamed: "list.pageSize", to: 70)  // not persisted
            try context.flush()
        }
        do {
            let context = try fixture.context()
            #expect(context.value(forKeyNamed: "list.showPending") == true)
            #expect(context.value(forKeyNamed: "list.pageSize") == 20)
            context.removeOverride(keyNamed: "list.showPending")
            try context.flush()
        }
        let context = try fixture.context()
        #expect(context.value(forKeyNamed: "list.showPending") == false)
        #expect(!(try fixture.read(fixture.overridesFile)).contains("list.showPending"))
    }

    @Test("Persisting without an overrides file is refused")
    func noOverridesFile() throws {
        let context = try ContextFixtures.context()
        #expect(throws: ContextWriteError.persistenceUnavailable(key: "beneficiaries.pageSize")) {
            try context.setOverride(.pageSize, to: 30, persist: true)
        }
        #expect(context[.pageSize] == 20)
    }

    @Test("Keys no longer defined are kept in the file but ignored")
    func unknownKeysKept() throws {
        let fixture = try PersistenceFixture()
        try fixture.write(fixture.preferencesFile, "preferences:\n  retired.setting: 7\n  list.rows: 3\n")
        let context = try fixture.context()
        #expect(context.value(forKeyNamed: "list.rows") == 3)
        #expect(context.loadDiagnostics.isEmpty)
        try context.setPreference(keyNamed: "list.rows", to: 4)
        try context.flush()
        let text = try fixture.read(fixture.preferencesFile)
        #expect(text.contains("retired.setting: 7"))
        #expect(text.contains("list.rows: 4"))
    }

    @Test("A corrupt preferences file is set aside, reported, and never overwritten")
    func corruptFileSetAside() throws {
        let fixture = try PersistenceFixture()
        let garbage = "preferences:\n  list.rows: [unterminated\n"
        try fixture.write(fixture.preferencesFile, garbage)
        let context = try fixture.context()
        #expect(context.value(forKeyNamed: "list.rows") == 10)
        let asides = fixture.stateFiles(containing: "preferences.yaml.corrupt-")
        #expect(asides.count == 1)
        #expect(try fixture.read(fixture.stateDirectory + "/" + asides[0]) == garbage)
        #expect(context.loadDiagnostics.contains { $0.message.contains("kept aside") })
        #expect(context.changeLog.contains { !$0.diagnostics.isEmpty })
        try context.setPreference(keyNamed: "list.rows", to: 11)
        try context.flush()
        #expect(try fixture.read(fixture.preferencesFile).contains("list.rows: 11"))
    }

    @Test("A file with some invalid values keeps the valid ones, and sets the original aside")
    func partiallyInvalid() throws {
        let fixture = try PersistenceFixture()
        try fixture.write(
            fixture.preferencesFile, "preferences:\n  list.rows: lots\n  appearance.darkMode: true\n  retired: 1\n")
        let context = try fixture.context()
        #expect(context.value(forKeyNamed: "appearance.darkMode") == true)
        #expect(context.value(forKeyNamed: "list.rows") == 10)
        #expect(fixture.stateFiles(containing: ".corrupt-").count == 1)
        let rewritten = try fixture.read(fixture.preferencesFile)
        #expect(rewritten.contains("appearance.darkMode: true"))
        #expect(rewritten.contains("retired: 1"))
        #expect(!rewritten.contains("lots"))
        #expect(context.loadDiagnostics.contains { $0.location.line == 2 && $0.isError })
    }
}
