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

    @Test("A write storm costs few disk writes, and the last value reaches disk")
    func coalescing() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        for rows in 1...500 { try context.setPreference(keyNamed: "list.rows", to: .int(rows)) }
        try context.flush()
        let writes = try #require(context.rootStore.preferencesFile?.writeCount)
        #expect(writes < 20)
        #expect(try fixture.read(fixture.preferencesFile).contains("list.rows: 500"))
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
        #expect(try fixture.read(fixture.directory.path + "/state/" + asides[0]) == garbage)
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
