import Ensign
import EnsignControl
import EnsignTooling
import Foundation

/// `ensign debt`: reports the flags a team can probably delete or tidy, for people and for CI.
enum DebtCommand {
    static let specification = CommandSpecification(
        name: "debt", summary: "Report flag debt: expired, ownerless, rolled-out, redundant, unused flags.",
        discussion: """
            Loads the definitions in DIR and reports, as path:line:column warnings:
              expired               'expires:' is before today
              noOwner               a flag without 'owner:'
              fullyRolledOut        targeting that gives every context the same value
              overlayEqualsDefault  an environment's value equal to the default it replaces
              unreferenced          a key no Swift file under --sources uses (needs --sources)
              undefined             a name a Swift file reads by name that is not defined
                                    (needs --sources)
              neverEvaluated        a key the running app has not evaluated since it started
                                    (needs --app or --socket, and counting on in the app:
                                    context.countEvaluations())
            A key is used when its generated name (.walletShowBalance) appears in a source, or its
            full name as a string literal, or the end of its name is given to a by-name API
            (FlagKey("showBalance", ...) read through a scope). Names read by name are the
            literals given to forKeyNamed:, keyNamed:, FlagKey(...) and UserPreferenceKey(...).
            Comments and multi-line strings are not read, nor files 'ensign generate' wrote.
            """,
        options: [
            .value("flags", "DIR", "the definitions directory (required)", required: true),
            .value(
                "sources", "DIR",
                "a directory of the app's Swift files (read recursively); give it once per directory", repeatable: true),
            .value(
                "app", "NAME",
                "also ask the running app NAME which keys it evaluated since it started (its counts)",
                exclusiveGroup: "target"),
            .value("socket", "PATH", "the same, for the app with this control socket", exclusiveGroup: "target"),
            .json("print one JSON object: ok, today, checked, counts, findings"),
            .value(
                "today", "YYYY-MM-DD",
                "compare 'expires:' with this day instead of today in UTC (or set \(TodayOption.variable))"),
        ],
        epilogue: """
            exit status: 0 when there is no debt, 1 when there are findings, 2 for a usage error or
            definitions that do not load.

            examples:
              ensign debt --flags flags/ --sources Sources/App
              ensign debt --flags flags/ --sources Sources/App --json | jq '.findings[].key'
              ensign debt --flags flags/ --app banking
            """,
        run: run)

    /// The keys the app named by `--app` or `--socket` evaluated, from its counts; `nil` without either.
    static func evaluatedKeys(_ arguments: ParsedArguments) throws -> Set<String>? {
        guard arguments.option("app") != nil || arguments.option("socket") != nil else { return nil }
        let report = try LiveTarget.connect(arguments).stats()
        return Set(report.keys.filter { $0.evaluations > 0 }.map(\.key))
    }

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let directory = arguments.option("flags") else {
            throw UsageError("give the definitions with --flags DIR")
        }
        let today = try TodayOption.day(option: arguments.option("today"))
        guard ConfigDirectory.isDirectory(directory) else {
            console.printError("\(directory): error: no such directory; --flags names a definitions directory")
            return ExitStatus.usage
        }
        let validation = ConfigValidator(loader: DefinitionLoader(today: today)).validate(paths: [directory])
        // Debt is counted on definitions that load; other problems are `ensign validate`'s to report.
        let errors = validation.diagnostics.filter(\.isError)
        var sources: [SwiftSourceScan.File]?
        for sourceDirectory in arguments.options("sources") {
            do throws(SourcesError) {
                sources = (sources ?? []) + (try swiftFiles(under: sourceDirectory))
            } catch {
                console.printError(error.description)
                return ExitStatus.usage
            }
        }
        guard errors.isEmpty else {
            for diagnostic in errors { console.printError(DiagnosticPrinter.format(diagnostic, console: console)) }
            console.printError(
                "ensign debt: the definitions do not load; fix the errors above ('ensign validate \(directory)')")
            return ExitStatus.usage
        }
        let evaluated = try evaluatedKeys(arguments)
        let report = FlagDebtAnalyzer(today: today).analyze(validation, sources: sources, evaluatedKeys: evaluated)
        if arguments.flag("json") {
            console.print(json(report).jsonText)
        } else {
            for finding in report.findings {
                console.print(DiagnosticPrinter.format(finding.diagnostic, console: console))
            }
            console.print(console.styled(report.summary, report.findings.isEmpty ? .green : .yellow))
        }
        return report.findings.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The report as one object; each finding also carries its kind's name.
    static func json(_ report: FlagDebtReport) -> JSONValue {
        var counts: [String: JSONValue] = [:]
        for kind in report.checkedKinds { counts[kind.rawValue] = .int(report.findings(of: kind).count) }
        let findings = report.findings.map { finding -> JSONValue in
            guard case .object(var object) = DiagnosticPrinter.json(finding.diagnostic) else { return .null }
            object["kind"] = .string(finding.kind.rawValue)
            return .object(object)
        }
        return .object([
            "ok": .bool(report.findings.isEmpty),
            "today": .string(report.today.description),
            "keys": .int(report.keyCount),
            "sourceFiles": report.sourceFileCount.map(JSONValue.int) ?? .null,
            "checked": .array(report.checkedKinds.map { .string($0.rawValue) }),
            "counts": .object(counts),
            "findings": .array(findings),
        ])
    }

    /// A directory `--sources` names that cannot be read.
    struct SourcesError: Error, CustomStringConvertible {
        let description: String
    }

    /// The `*.swift` files under `directory`, sorted; hidden directories (`.build`) are skipped.
    static func swiftFiles(under directory: String) throws(SourcesError) -> [SwiftSourceScan.File] {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard ConfigDirectory.isDirectory(directory),
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else {
            throw SourcesError(
                description: "\(directory): error: no such directory; --sources names a directory of Swift files")
        }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var files: [SwiftSourceScan.File] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw SourcesError(description: "\(url.path): error: cannot read the file")
            }
            // Under the directory as it was given, so diagnostics point where the user looks.
            let path =
                url.path.hasPrefix(prefix)
                ? ConfigDirectory.join(directory, String(url.path.dropFirst(prefix.count))) : url.path
            files.append(SwiftSourceScan.File(path: path, text: String(decoding: data, as: UTF8.self)))
        }
        return files.sorted { $0.path < $1.path }
    }
}
