import Ensign
import EnsignCodeGeneration
import EnsignTooling
import Foundation

/// `ensign validate`: loads and checks definitions and overlays, printing compiler-style diagnostics.
enum ValidateCommand {
    static let specification = CommandSpecification(
        name: "validate", summary: "Check definitions and overlay files; print problems as path:line:column.",
        arguments: "PATH…",
        discussion: """
            PATH is a definitions directory (its *.yaml, *.yml and *.json files, and its
            environments/*.yaml overlays) or a single file; a file is a definitions file when it
            has 'version:' (or other definition fields), otherwise an overlay. Definitions from
            every PATH are combined, and overlays are checked against them.
            """,
        options: [
            .value(
                "env", "E",
                "check only environment E's overlay in each directory; E must be an environment the files mention"),
            .json("print one JSON object: ok, errors, warnings, diagnostics"),
            .flag("strict", "fail on warnings too"),
            .value(
                "check-generated", "FILE",
                "fail when FILE, written by 'ensign generate', no longer matches the definitions (for teams that"
                    + " commit it)"),
        ],
        epilogue: """
            exit status: 0 when there are no errors (and no warnings with --strict), 1 otherwise.

            example:
              ensign validate flags/ deploy/production.yaml --strict
              ensign validate flags/ --check-generated Sources/App/EnsignKeys.swift
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw UsageError("give at least one PATH") }
        var report = try TodayOption.validator().validate(
            paths: arguments.positionals, environment: arguments.option("env"))
        if let generated = arguments.option("check-generated") {
            report.diagnostics += checkGenerated(generated, report: report, paths: arguments.positionals)
        }
        let failed = report.errorCount > 0 || (arguments.flag("strict") && report.warningCount > 0)
        if arguments.flag("json") {
            console.print(json(report, ok: !failed).jsonText)
        } else {
            for diagnostic in report.diagnostics {
                console.print(DiagnosticPrinter.format(diagnostic, console: console))
            }
            let summary = report.summary
            console.print(failed ? console.styled(summary, .red) : console.styled(summary, .green))
        }
        console.keepUntilExit(report)
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Problems with a generated keys file: stale, unreadable, or not generated.
    static func checkGenerated(_ path: String, report: ValidationReport, paths: [String]) -> [Diagnostic] {
        let unreadable = Diagnostic(
            .error, at: .unknown(path),
            "cannot read the generated file \(path); create it with 'ensign generate --flags DIR --output \(path)'")
        // Read through a handle, so a pipe (`--check-generated <(ensign generate …)`) works too.
        guard let handle = FileHandle(forReadingAtPath: path) else { return [unreadable] }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data() else { return [unreadable] }
        let directories = paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        let check = GeneratedFileCheck(path: path, contents: String(decoding: data, as: UTF8.self))
        return check.check(against: report.definitions, sourceDirectories: directories)
    }

    static func json(_ report: ValidationReport, ok: Bool) -> JSONValue {
        .object([
            "ok": .bool(ok),
            "errors": .int(report.errorCount),
            "warnings": .int(report.warningCount),
            "keys": .int(report.definitions.count),
            "files": .array((report.definitionFiles + report.overlays.map(\.source)).map(JSONValue.string)),
            "diagnostics": .array(report.diagnostics.map(DiagnosticPrinter.json)),
        ])
    }
}
