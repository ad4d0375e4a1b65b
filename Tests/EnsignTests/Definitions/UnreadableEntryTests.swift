import EnsignTestSupport
import EnsignTooling
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

/// Entries of a definitions directory that cannot be read are errors naming their path, never
/// skipped silently (the app would start with fewer keys); non-regular files never block.
@Suite("Unreadable entries in a definitions directory")
struct UnreadableEntryTests {
    static let definitions = "version: 1\nflags:\n  list.pageSize: { type: int, default: 20 }\n"

    enum Entry: String, CaseIterable {
        case danglingLink, linkLoop, fifo, directory
    }

    /// A directory with good definitions and one bad entry of `kind`, named `bad.yaml`.
    static func directory(with kind: Entry, in subdirectory: String = "") throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        try directory.write("flags/app.yaml", definitions)
        try directory.write("flags/environments/production.yaml", "flags:\n  list.pageSize: 30\n")
        let bad = directory.path + "/flags/\(subdirectory)bad.yaml"
        switch kind {
        case .danglingLink: try directory.link("flags/\(subdirectory)bad.yaml", to: "missing.yaml")
        case .linkLoop: try directory.link("flags/\(subdirectory)bad.yaml", to: "bad.yaml")
        case .fifo: #expect(mkfifo(bad, 0o600) == 0)
        case .directory: try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        }
        return (directory, bad)
    }

    @Test("A bad entry among the definitions stops the load with an error naming it", arguments: Entry.allCases)
    func contextRefuses(kind: Entry) throws {
        let (directory, bad) = try Self.directory(with: kind)
        var configuration = AppContextConfiguration(
            definitionsDirectory: directory.path + "/flags", environment: "production")
        configuration.watchesFiles = false
        #expect {
            _ = try AppContext(configuration: configuration)
        } throws: { error in
            (error as? AppContextLoadError)?.diagnostics.contains { $0.isError && $0.location.file == bad } == true
        }
    }

    @Test("validate reports a bad entry as an error, in the directory and in environments/", arguments: Entry.allCases)
    func validateReports(kind: Entry) throws {
        for subdirectory in ["", "environments/"] {
            let (directory, bad) = try Self.directory(with: kind, in: subdirectory)
            let report = ConfigValidator().validate(paths: [directory.path + "/flags"])
            #expect(report.diagnostics.contains { $0.isError && $0.location.file == bad }, "\(subdirectory)\(kind)")
        }
    }

    @Test("A FIFO named on the command line is refused at once, without waiting for a writer")
    func fifoDoesNotBlock() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/flags.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: YAMLError.self) { _ = try ConfigSource.file(fifo) }
        let report = ConfigValidator().validate(paths: [fifo])
        #expect(report.diagnostics.contains { $0.isError && $0.message.contains("not a regular file") })
    }

    @Test("An unlistable definitions directory is an error, not a warning")
    func unlistableDirectory() throws {
        let directory = try TemporaryDirectory()
        try directory.write("flags/app.yaml", Self.definitions)
        // A directory the process cannot list: as root, permissions do not stop it, so use a
        // name that is a file where a directory is expected below it.
        let problems = DefinitionsDirectory(path: directory.path + "/flags/app.yaml").listingProblems()
        #expect(problems.contains { $0.isError && $0.message.contains("cannot list") })
    }

    @Test("Another environment's bad entry does not stop a context; its own does")
    func otherEnvironmentsEntry() throws {
        let directory = try TemporaryDirectory()
        try directory.write("flags/app.yaml", Self.definitions)
        try directory.write("flags/environments/production.yaml", "flags:\n  list.pageSize: 30\n")
        try directory.link("flags/environments/staging.yaml", to: "missing.yaml")
        var production = AppContextConfiguration(
            definitionsDirectory: directory.path + "/flags", environment: "production")
        production.watchesFiles = false
        #expect(try AppContext(configuration: production).value(forKeyNamed: "list.pageSize") == 30)
        var staging = production
        staging.environment = "staging"
        #expect(throws: AppContextLoadError.self) { _ = try AppContext(configuration: staging) }
    }
}
