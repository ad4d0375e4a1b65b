import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

@Suite("Loading a definitions directory")
struct DefinitionDirectoryTests {
    @Test("Definitions, .yml and .json files, and environment overlays are read; other files are not")
    func readsAllKinds() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.yaml", "version: 1\nflags:\n  a: { default: 1 }\n")
        try directory.write("b.yml", "flags:\n  b: { default: true }\n")
        try directory.write("c.json", #"{"flags": {"c": {"variants": {"x": "X"}, "defaultVariant": "x"}}}"#)
        try directory.write("notes.txt", "not a config file")
        try directory.write(".hidden.yaml", "this is not even YAML: [")
        try directory.write("environments/staging.yaml", "flags:\n  a: 2\n")
        let loaded = DefinitionLoader().loadDirectory(directory.path, environment: "staging")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a", "b", "c"])
        #expect(loaded.environmentOverlay?.flags["a"]?.value == 2)
        #expect(loaded.definitions.files.map { ($0 as NSString).lastPathComponent } == ["a.yaml", "b.yml", "c.json"])
    }

    @Test("A Kubernetes ConfigMap layout (links into a hidden ..data directory) loads once")
    func configMapLayout() throws {
        let directory = try TemporaryDirectory()
        try directory.write("..2026_11_29_10_00_00.123/app.yaml", "flags:\n  a: { default: 1 }\n")
        try directory.link("..data", to: "..2026_11_29_10_00_00.123")
        try directory.link("app.yaml", to: "..data/app.yaml")
        let loaded = DefinitionLoader().loadDirectory(directory.path)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions.keys == ["a"])
    }

    @Test("A missing directory is an error, an empty one a warning")
    func missingAndEmpty() throws {
        let missing = DefinitionLoader().loadDirectory("/nonexistent/ensign/flags")
        #expect(missing.diagnostics.map(\.description) == ["/nonexistent/ensign/flags: error: no such directory"])
        let directory = try TemporaryDirectory()
        let empty = DefinitionLoader().loadDirectory(directory.path)
        #expect(empty.diagnostics.first?.severity == .warning)
        #expect(empty.definitions.count == 0)
    }

    @Test("The sample flags directory loads without problems")
    func sampleDirectory() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let loaded = DefinitionLoader().loadDirectory(root.appendingPathComponent("flags").path)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.definitions["beneficiaries.showPendingList"]?.environmentValues["development"]?.value == true)
        #expect(loaded.knownEnvironments == ["development", "production", "staging"])
    }

    @Test("The sample's environment overlays set no value that targeting decides first")
    func sampleOverlaysMeanWhatTheySay() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let flags = root.appendingPathComponent("flags").path
        for environment in ["development", "staging", "production"] {
            let loaded = DefinitionLoader().loadDirectory(flags, environment: environment)
            let overlay = try #require(loaded.environmentOverlay)
            let targeted = overlay.flags.keys.filter { loaded.definitions[$0]?.compiledTargeting != nil }
            #expect(targeted.isEmpty, "\(environment) sets \(targeted), which targeting decides first")
        }
    }
}
