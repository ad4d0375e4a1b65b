import Ensign
import EnsignTooling
import Foundation

/// `ensign export`: writes a definitions directory as one JSON bundle, for apps built without YAML.
enum ExportCommand {
    static let specification = CommandSpecification(
        name: "export", summary: "Write a definitions directory as one JSON bundle an app loads without libyaml.",
        discussion: """
            Reads DIR as a context would (its definitions files and environments/*.yaml
            overlays) and writes it as one JSON file: {"ensignBundle": 1, "definitions":
            {FILE: [DOCUMENT, …]}, "environments": {NAME: [DOCUMENT, …]}}, each document the
            file's own, aliases and merge keys applied. An app built without the YAML trait
            (Apple platforms) ships the bundle and names it where it would name the directory,
            AppContextConfiguration(definitionsDirectory: "Flags.bundle.json"); it resolves the
            same values, variants and targeting. 'ensign validate', 'eval' and 'demo' take a
            bundle wherever they take DIR.

            A directory with errors is not exported; warnings are printed and do not stop it.
            """,
        options: [
            .value("flags", "DIR", "the definitions directory (required)", required: true),
            .value("env", "E", "put only environment E's overlay in the bundle; E must be one DIR mentions"),
            .value("output", "FILE", "write FILE (atomically) instead of standard output"),
        ],
        epilogue: """
            Problems print on standard error as path:line:column.

            exit status: 0 when the bundle was written, 1 when DIR has errors or FILE cannot be written.

            examples:
              ensign export --flags flags/ --output App/Resources/Flags.bundle.json
              ensign export --flags flags/ --env production > production.json
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let directory = arguments.option("flags") else {
            throw UsageError("give the definitions with --flags DIR")
        }
        let export = DefinitionsBundleExporter().export(directory: directory, environment: arguments.option("env"))
        for diagnostic in export.diagnostics {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        guard let text = export.text else { return ExitStatus.failure }
        guard let output = arguments.option("output") else {
            console.print(text, terminator: "")
            return ExitStatus.success
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            console.printError("\(output): error: cannot write the bundle: \(error.localizedDescription)")
            return ExitStatus.failure
        }
        console.print("wrote \(output)")
        return ExitStatus.success
    }
}
