import Ensign
import Foundation

/// Loads definitions for offline evaluation (`eval`) from a directory or a file.
enum OfflineDefinitions {
    /// What was loaded for one environment.
    struct Loaded {
        var definitions: DefinitionSet = .empty
        var environmentOverlay: Overlay?
        var knownEnvironments: [String] = []
        var diagnostics: [Diagnostic] = []
    }

    /// An evaluator over PATH for `environment`, loaded as a context for it would be: the
    /// definitions and that environment's overlay only. Errors are printed to standard error,
    /// but evaluation goes on, as flagd does: a broken flag resolves with an error code while
    /// the others work. An environment that no file mentions is the exception (every value
    /// would silently be another environment's): the error lists the known ones, and the
    /// result is `nil`.
    static func evaluator(path: String, environment: String?, console: inout Console) -> FlagEvaluator? {
        let loaded = load(path, environment: environment)
        for diagnostic in loaded.diagnostics where diagnostic.isError {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        if let environment, !loaded.knownEnvironments.isEmpty, !loaded.knownEnvironments.contains(environment) {
            return nil
        }
        return FlagEvaluator(
            definitions: loaded.definitions, environment: environment ?? "",
            environmentOverlay: loaded.environmentOverlay, deploymentOverlays: [])
    }

    static func load(_ path: String, environment: String?) -> Loaded {
        let loader = DefinitionLoader()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue || loader.isBundle(atPath: path)
        {
            let directory = loader.loadDirectory(path, environment: environment)
            return Loaded(
                definitions: directory.definitions, environmentOverlay: directory.environmentOverlay,
                knownEnvironments: directory.knownEnvironments, diagnostics: directory.diagnostics)
        }
        var loaded = Loaded()
        do {
            let file = loader.loadDefinitions(from: [try ConfigSource.file(path)])
            loaded.definitions = file.definitions
            loaded.diagnostics = file.diagnostics
        } catch {
            loaded.diagnostics = [Diagnostic(error)]
        }
        // A single file has no environments/ directory: only its inline values mention environments.
        let known = KnownEnvironments(definitions: loaded.definitions, overlayNames: [])
        loaded.knownEnvironments = known.names.sorted()
        if let environment,
            let problem = known.problem(
                with: environment, at: .unknown(path), ownFile: "environments/\(environment).yaml next to it")
        {
            loaded.diagnostics.append(problem)
        }
        return loaded
    }
}
