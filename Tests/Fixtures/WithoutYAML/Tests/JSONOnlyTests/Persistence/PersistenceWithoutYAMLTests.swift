import Ensign
import Foundation
import Testing

/// Without libyaml the preferences and overrides files are written as JSON (which is YAML),
/// and read back by the next start.
@Suite("Without the YAML trait: persistence")
struct PersistenceWithoutYAMLTests {
    static let definitions = """
        {"flags": {"pageSize": {"type": "int", "default": 20}, "banner": {"type": "object", "default": {}}},
         "preferences": {"darkMode": {"type": "bool", "default": false},
                         "name": {"type": "string", "default": ""}}}
        """

    static func context(_ scratch: Scratch) throws(AppContextLoadError) -> AppContext {
        var configuration = AppContextConfiguration(
            definitionsDirectory: scratch.path + "/flags", environment: "test",
            preferencesFile: scratch.path + "/state/preferences.yaml",
            overridesFile: scratch.path + "/state/overrides.yaml")
        configuration.watchesFiles = false
        return try AppContext(configuration: configuration)
    }

    @Test("Preferences and persisted overrides are saved as JSON and read back by the next context")
    func roundTrip() throws {
        let scratch = try Scratch()
        try scratch.write("flags/app.json", Self.definitions)
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/state", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Text JSON must escape, and text libyaml refuses raw (U+0085): both must come back intact.
        let name = "quote \" backslash \\ tab \t next-line \u{85} emoji 🚩 \u{7F}"
        do {
            let context = try Self.context(scratch)
            try context.setPreference(keyNamed: "darkMode", to: true)
            try context.setPreference(keyNamed: "name", to: .string(name))
            try context.setOverride(keyNamed: "pageSize", to: 50, persist: true)
            try context.setOverride(keyNamed: "banner", to: ["title": "Hi", "ids": [1, 2.5, .null]], persist: true)
        }
        let preferences = try scratch.read("state/preferences.yaml")
        #expect(preferences.hasPrefix("{"))
        #expect(preferences.contains("\"darkMode\": true"))
        let overrides = try scratch.read("state/overrides.yaml")
        #expect(overrides.contains("\"pageSize\": 50"))
        let next = try Self.context(scratch)
        #expect(next.details(forKeyNamed: "darkMode").value == true)
        #expect(next.details(forKeyNamed: "name").value == .string(name))
        #expect(next.details(forKeyNamed: "pageSize").value == 50)
        #expect(next.details(forKeyNamed: "banner").value == ["title": "Hi", "ids": [1, 2.5, .null]])
    }

    @Test("A preferences file in YAML is set aside with the no-YAML error, not read as empty")
    func yamlPreferencesFile() throws {
        let scratch = try Scratch()
        try scratch.write("flags/app.json", Self.definitions)
        try scratch.write("state/preferences.yaml", "preferences:\n  darkMode: true\n")
        let context = try Self.context(scratch)
        #expect(context.details(forKeyNamed: "darkMode").value == false)
        #expect(context.loadDiagnostics.contains { $0.message.contains("no YAML support") })
    }
}
