import Ensign

/// Opens the context a long-running command (`demo`, `serve`) works on.
enum ContextOpening {
    /// The context `configuration` describes, or nil once every diagnostic of its failed load
    /// is printed to standard error (the command then exits with ``ExitStatus/failure``).
    static func open(_ configuration: AppContextConfiguration, console: inout Console) -> AppContext? {
        do {
            return try AppContext(configuration: configuration)
        } catch {
            for diagnostic in error.diagnostics {
                console.printError(DiagnosticPrinter.format(diagnostic, console: console))
            }
            return nil
        }
    }
}
