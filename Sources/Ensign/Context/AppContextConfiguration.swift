import Dispatch
import EnsignSupport
import EnsignYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a context loads and how it behaves: its definitions, environment and deployment
/// files, and (with later features) its preferences and overrides files.
///
/// ```swift
/// var configuration = AppContextConfiguration(definitionsDirectory: "flags")
/// configuration.deploymentFiles = ["/etc/myapp/flags.yaml"]
/// let context = try AppContext(configuration: configuration)
/// ```
public struct AppContextConfiguration: Sendable {
    /// The definitions directory: `*.yaml`, `*.yml`, `*.json` and `environments/<name>.yaml`;
    /// or a definitions bundle, the whole directory in one JSON file (`ensign export` makes
    /// it), which is what a build without the `YAML` trait (Apple platforms) ships.
    public var definitionsDirectory: String
    /// The environment: `development`, `staging`, `production`, … Defaults to `$ENSIGN_ENV`,
    /// else `production`, the fail-safe choice (no development values, and the control server
    /// refuses writes). It must be an environment the files mention: an
    /// `environments/<name>.yaml` file or an inline `environments:` value.
    public var environment: String
    /// Overlay files applied after the environment, in order (layer 4).
    public var deploymentFiles: [String]
    /// The user's preferences file (YAML overlay, written by the library); `nil` keeps
    /// preferences in memory only.
    public var preferencesFile: String?
    /// Where overrides set with `persist: true` are saved and re-applied at start-up; `nil`
    /// means overrides cannot be persisted.
    public var overridesFile: String?
    /// Whether the context watches its files and reloads when they change. Default: `true`.
    public var watchesFiles = true
    /// How long the watcher waits after a change before reloading, so an editor's burst of
    /// writes (or a ConfigMap update) reloads once. Default: 50 ms.
    public var watchDebounce: Duration = .milliseconds(50)
    /// How often files are polled (stat only; contents are read when stat data changed).
    /// Polling backs up inotify on Linux and is the only mechanism elsewhere. Default: 2 s.
    public var pollInterval: Duration = .seconds(2)
    /// The label of the root context in the change log.
    public var label: String
    /// The YAML limits for every file.
    public var limits = Limits()
    /// How many transactions the change log keeps.
    public var changeLogCapacity = 256
    /// Observers that run longer than this are flagged as slow in the change log.
    public var slowObserverThreshold: Duration = .milliseconds(16)
    /// How long a write waiting for the preferences or overrides file (one that failed, or a
    /// batch's) waits before it is written in the background. For tests that must decide when
    /// files are written (the model-based tests, whose model writes only at explicit flushes).
    package var persistenceCoalescingDelay: DispatchTimeInterval = .milliseconds(50)

    /// Creates a configuration; `environment` defaults to `$ENSIGN_ENV`, else `production`.
    public init(
        definitionsDirectory: String, environment: String? = nil, deploymentFiles: [String] = [],
        preferencesFile: String? = nil, overridesFile: String? = nil, label: String = "root"
    ) {
        self.definitionsDirectory = definitionsDirectory
        self.environment = environment ?? Self.environmentFromProcess()
        self.deploymentFiles = deploymentFiles
        self.preferencesFile = preferencesFile
        self.overridesFile = overridesFile
        self.label = label
    }

    /// `$ENSIGN_ENV`, or `production` when it is unset or empty.
    ///
    /// A forgotten variable must not turn a deployed app into a development one (development
    /// values, debug writes accepted), so the default is the fail-safe one; a developer's
    /// machine sets `ENSIGN_ENV=development`.
    public static func environmentFromProcess() -> String {
        environment(fromVariable: ProcessEnvironment.value("ENSIGN_ENV"))
    }

    /// The environment a value of `ENSIGN_ENV` selects (`nil` when it is unset).
    static func environment(fromVariable value: String?) -> String {
        guard let value, !value.isEmpty else { return "production" }
        return value
    }

    var settings: ContextSettings {
        ContextSettings(changeLogCapacity: changeLogCapacity, slowObserverThreshold: slowObserverThreshold)
    }
}

/// A context could not be created: its files have errors.
public struct AppContextLoadError: Error, Sendable, CustomStringConvertible {
    /// Every problem found (errors and warnings).
    public var diagnostics: [Diagnostic]

    /// The errors, one per line, in compiler style.
    public var description: String {
        let errors = diagnostics.filter(\.isError)
        return "the configuration has \(errors.count) error\(errors.count == 1 ? "" : "s"):\n"
            + errors.map(\.description).joined(separator: "\n")
    }
}

extension AppContextConfiguration {
    /// Bounds on the files a context reads — size, nesting depth, alias expansion — so a hostile
    /// or broken file is refused with a clear error instead of exhausting memory.
    ///
    /// ```swift
    /// var configuration = AppContextConfiguration(definitionsDirectory: "flags", environment: "production")
    /// configuration.limits.maximumFileSize = 1 << 20
    /// ```
    public typealias Limits = EnsignYAML.YAMLLimits
}
