import EnsignTestSupport
import Foundation

@testable import Ensign

/// A definitions directory with a preference of every type, and paths for the files the
/// library writes, in a fresh temporary directory.
struct PersistenceFixture {
    let directory: TemporaryDirectory
    var flags: String { directory.path + "/flags" }
    var stateDirectory: String { directory.path + "/state" }
    var preferencesFile: String { stateDirectory + "/preferences.yaml" }
    var overridesFile: String { stateDirectory + "/overrides.yaml" }

    static let definitions = """
        version: 1
        flags:
          list.pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          list.showPending: { type: bool, default: false }
        preferences:
          appearance.darkMode: { type: bool, default: false }
          appearance.fontScale: { type: double, default: 1.0 }
          list.rows: { type: int, default: 10 }
          locale.language: { type: string, enum: [en, fr, de], default: en }
          layout.columns: { type: object, default: { left: 1, right: 2 } }
        """

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("flags/app.yaml", Self.definitions)
    }

    /// Creates the state directory ahead of the context, with `mode`, and returns its path.
    func makeStateDirectory(mode: mode_t) throws -> String {
        try makeDirectory("state", mode: mode)
    }

    /// Creates the directory `name` in the fixture's directory with `mode`, and returns its path.
    func makeDirectory(_ name: String, mode: mode_t) throws -> String {
        let path = directory.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard chmod(path, mode) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EPERM) }
        return path
    }

    func configuration(watching: Bool = false) -> AppContextConfiguration {
        var configuration = AppContextConfiguration(
            definitionsDirectory: flags, environment: "test", preferencesFile: preferencesFile,
            overridesFile: overridesFile)
        configuration.watchesFiles = watching
        configuration.watchDebounce = .milliseconds(20)
        configuration.pollInterval = .milliseconds(200)
        return configuration
    }

    func context(watching: Bool = false) throws -> AppContext {
        try AppContext(configuration: configuration(watching: watching))
    }

    /// A context watching the fixture's files (and `deploymentFiles`) that applies changes
    /// only when a test checks for them: ``AppContext/watchingOnDemand(_:)``.
    func onDemandContext(deploymentFiles: [String] = []) throws -> AppContext {
        var configuration = configuration(watching: true)
        configuration.deploymentFiles = deploymentFiles
        return try AppContext.watchingOnDemand(configuration)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Files in the state directory whose names contain `fragment`.
    func stateFiles(containing fragment: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        return names.filter { $0.contains(fragment) }
    }
}

extension AppContext {
    /// A context on `configuration` that watches its files but whose watcher never fires on
    /// its own (an hour's debounce and poll): changes apply only at `reloadIfNeeded()`, so the
    /// test, not timing, decides what one check sees. Returns once the watcher has its baseline.
    static func watchingOnDemand(_ configuration: AppContextConfiguration) throws -> AppContext {
        var configuration = configuration
        configuration.watchDebounce = .seconds(3600)
        configuration.pollInterval = .seconds(3600)
        let context = try AppContext(configuration: configuration)
        context.waitUntilWatching()
        return context
    }
}
