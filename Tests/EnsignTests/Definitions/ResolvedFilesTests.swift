import EnsignTestSupport
import EnsignTooling
import Foundation
import Testing

@testable import Ensign

/// A definitions directory with three environments; `staging` breaks a value when asked to.
struct ThreeEnvironments {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    init(brokenStaging: Bool = false) throws {
        directory = try TemporaryDirectory()
        try directory.write("app.yaml", "version: 1\nflags:\n  list.pageSize: { type: int, default: 20 }\n")
        try directory.write("environments/development.yaml", "flags:\n  list.pageSize: 50\n")
        try directory.write(
            "environments/staging.yaml", "flags:\n  list.pageSize: \(brokenStaging ? "\"many\"" : "30")\n")
        try directory.write("environments/production.yaml", "flags:\n  list.pageSize: 40\n")
    }

    func context(_ environment: String) throws -> AppContext {
        try unwatchedContext(path, environment: environment)
    }
}

@Suite("Loading at run time: only the files the context resolves")
struct ResolvedFilesTests {
    @Test("A broken overlay of another environment does not stop a production context")
    func otherEnvironmentBroken() throws {
        let flags = try ThreeEnvironments(brokenStaging: true)
        let context = try flags.context("production")
        #expect(context.value(forKeyNamed: "list.pageSize") == 40)
        #expect(context.loadDiagnostics.isEmpty)
        // The broken environment itself still refuses to load, naming the value.
        #expect {
            try flags.context("staging")
        } throws: { error in
            "\(error)".contains("staging.yaml:2:18: error: 'list.pageSize' value \"many\" is not an int")
        }
    }

    @Test("validate still checks every environment's overlay")
    func validateChecksEveryEnvironment() throws {
        let flags = try ThreeEnvironments(brokenStaging: true)
        let report = ConfigValidator().validate(paths: [flags.path])
        #expect(report.errorCount == 1)
        #expect(report.diagnostics.first?.location.file == flags.path + "/environments/staging.yaml")
        #expect(Set(report.environments.keys) == ["development", "staging", "production"])
    }

    @Test("loadDirectory reads the definitions and only the environment asked for")
    func loadsOneEnvironment() throws {
        let flags = try ThreeEnvironments(brokenStaging: true)
        let loaded = DefinitionLoader().loadDirectory(flags.path, environment: "development")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.environmentOverlay?.flags["list.pageSize"]?.value == 50)
        #expect(loaded.knownEnvironments == ["development", "production", "staging"])
        let definitionsOnly = DefinitionLoader().loadDirectory(flags.path)
        #expect(definitionsOnly.diagnostics.isEmpty)
        #expect(definitionsOnly.environmentOverlay == nil)
    }

    @Test("A reload reads only the context's own environment too")
    func reloadIgnoresOtherEnvironments() throws {
        let flags = try ThreeEnvironments()
        let context = try flags.context("production")
        try flags.directory.write("environments/staging.yaml", "flags:\n  list.pageSize: [broken]\n")
        try flags.directory.write("environments/production.yaml", "flags:\n  list.pageSize: 45\n")
        #expect(context.reload().isEmpty)
        #expect(!context.status.isDegraded)
        #expect(context.value(forKeyNamed: "list.pageSize") == 45)
    }
}
