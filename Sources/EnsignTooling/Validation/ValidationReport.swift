import Ensign

/// What ``ConfigValidator`` found.
package struct ValidationReport: Sendable {
    /// Every problem, in reading order.
    package var diagnostics: [Diagnostic]
    /// The combined definitions.
    package var definitions: DefinitionSet
    /// The definitions files read.
    package var definitionFiles: [String]
    /// The overlays read, in the order of the paths given.
    package var overlays: [Overlay]
    /// The environment overlays among them (`environments/<name>.yaml` in a directory), by name.
    package var environments: [String: Overlay]

    /// How many errors there are.
    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// How many warnings there are.
    package var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// One line: what was checked and what was found.
    package var summary: String {
        let flags = definitions.orderedDefinitions.filter { $0.kind == .flag }.count
        let preferences = definitions.count - flags
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(plural(flags, "flag")) and \(plural(preferences, "preference")) in"
            + " \(plural(definitionFiles.count, "definitions file")), \(plural(overlays.count, "overlay")):"
            + " \(plural(errorCount, "error")), \(plural(warningCount, "warning"))"
    }
}
