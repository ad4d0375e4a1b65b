import Ensign

/// Loads definitions for offline commands (`eval`, `list --flags`) from a directory or a file.
enum OfflineDefinitions {
    /// An evaluator over PATH for `environment`. Errors are printed to standard error, but
    /// evaluation goes on, as flagd does: a broken flag resolves with an error code while
    /// the others work.
    static func evaluator(path: String, environment: String?, console: inout Console) -> FlagEvaluator {
        let loader = DefinitionLoader()
        let report = ConfigValidator(loader: loader).validate(paths: [path], environment: environment)
        for diagnostic in report.diagnostics where diagnostic.isError {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        return FlagEvaluator(
            definitions: report.definitions, environment: environment ?? "",
            environmentOverlay: environment.flatMap { report.environments[$0] })
    }
}
