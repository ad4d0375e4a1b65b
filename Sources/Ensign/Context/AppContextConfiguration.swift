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
    /// The definitions directory: `*.yaml`, `*.yml`, `*.json` and `environments/<name>.yaml`.
    public var definitionsDirectory: String
    /// The environment: `development`, `staging`, `production`, … Defaults to `$ENSIGN_ENV`,
    /// else `development`.
    public var environment: String
    /// Overlay files applied after the environment, in order (layer 4).
    public var deploymentFiles: [String]
    /// The label of the root context in the change log.
    public var label: String
    /// The YAML limits for every file.
    public var limits: YAMLLimits
    /// How many transactions the change log keeps.
    public var changeLogCapacity: Int
    /// Observers that run longer than this are flagged as slow in the change log.
    public var slowObserverThreshold: Duration

    /// Creates a configuration; `environment` defaults to `$ENSIGN_ENV`, else `development`.
    public init(
        definitionsDirectory: String, environment: String? = nil, deploymentFiles: [String] = [],
        label: String = "root"
    ) {
        self.definitionsDirectory = definitionsDirectory
        self.environment = environment ?? Self.environmentFromProcess()
        self.deploymentFiles = deploymentFiles
        self.label = label
        self.limits = YAMLLimits()
        self.changeLogCapacity = 256
        self.slowObserverThreshold = .milliseconds(16)
    }

    /// `$ENSIGN_ENV`, or `development` when it is unset or empty.
    public static func environmentFromProcess() -> String {
        guard let value = getenv("ENSIGN_ENV").map({ String(cString: $0) }), !value.isEmpty else {
            return "development"
        }
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
