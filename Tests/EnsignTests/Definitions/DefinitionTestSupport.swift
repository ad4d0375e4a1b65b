@testable import Ensign

/// Loads in-memory definitions, fixed to a known day so expiry checks are stable.
func loadDefinitions(_ files: [String: String], today: String = "2026-11-29") -> DefinitionLoadResult {
    let loader = DefinitionLoader(today: CalendarDay(today)!)
    return loader.loadDefinitions(from: files.keys.sorted().map { ConfigSource(name: $0, text: files[$0]!) })
}

/// The printed diagnostics of one in-memory definitions file.
func diagnostics(_ text: String, file: String = "flags/app.yaml") -> [String] {
    loadDefinitions([file: text]).diagnostics.map(\.description)
}

/// The printed diagnostics of an overlay checked against definitions.
func overlayDiagnostics(_ overlay: String, definitions: String) -> [String] {
    let loaded = loadDefinitions(["flags/app.yaml": definitions])
    precondition(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)")
    let (_, found) = DefinitionLoader().readOverlay(
        ConfigSource(name: "deploy/prod.yaml", text: overlay), definitions: loaded.definitions)
    return found.map(\.description)
}

/// A context over the definitions directory at `path` for `environment`, not watching its files.
func unwatchedContext(_ path: String, environment: String) throws(AppContextLoadError) -> AppContext {
    var configuration = AppContextConfiguration(definitionsDirectory: path, environment: environment)
    configuration.watchesFiles = false
    return try AppContext(configuration: configuration)
}
