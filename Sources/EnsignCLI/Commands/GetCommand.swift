import Ensign
import EnsignControl

/// `ensign get`: one key's live value and where it comes from.
enum GetCommand {
    static let specification = CommandSpecification(
        name: "get", summary: "Print a key's live value, variant, reason and source from a running app.",
        arguments: "KEY",
        options: [
            .json(
                "print one object: key, value, variant, reason, errorCode, errorMessage, metadata, source (layer,"
                    + " file, line)")
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            exit status: 0 when the key resolved without an error code, 1 otherwise.

            example:
              ensign get beneficiaries.pageSize --json
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let key = try arguments.onlyPositional()
        let report = try LiveTarget.connect(arguments).get(key)
        if arguments.flag("json") {
            console.print(LiveFormat.json(report).jsonText)
        } else {
            printFields(of: report, console: &console)
        }
        return report.errorCode == nil ? ExitStatus.success : ExitStatus.failure
    }

    /// The report as an aligned FIELD VALUE list (also used by `set` and `toggle`).
    static func printFields(of report: KeyReport, console: inout Console) {
        var table = TableFormatter(header: ["FIELD", "VALUE"])
        table.add(["key", report.key])
        table.add(["value", LiveFormat.value(report.value)])
        if let type = report.type { table.add(["type", "\(type) \(report.kind ?? "")"]) }
        table.add(["variant", report.variant ?? "-"])
        table.add(["reason", report.reason])
        if let errorCode = report.errorCode { table.add(["error", "\(errorCode): \(report.errorMessage ?? "")"]) }
        table.add(["source", report.source.description])
        if report.isOverridden { table.add(["override", report.isPersisted ? "yes, persisted" : "yes"]) }
        if !report.metadata.isEmpty { table.add(["metadata", JSONValue.object(report.metadata).jsonText]) }
        if let description = report.description { table.add(["description", description]) }
        for line in table.lines(console: console).dropFirst() {
            console.print(line.hasPrefix("value") ? console.styled(line, .bold) : line)
        }
    }
}
