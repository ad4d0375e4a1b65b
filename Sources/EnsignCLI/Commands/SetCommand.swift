import Ensign
import EnsignControl

/// `ensign set`: overrides a key in a running app.
enum SetCommand {
    static let specification = CommandSpecification(
        name: "set", summary: "Override a key's value in a running app (checked against its definition).",
        arguments: "KEY VALUE",
        discussion: """
            VALUE is JSON when it parses as JSON (true, 50, 1.5, "text", [1, 2], {"a": 1}), and
            text otherwise (so `ensign set locale.language fr` works). The app checks it exactly
            as its own code would: type, enum, minimum and maximum. The app's observers of the
            key run before the command returns.
            """,
        options: [
            .flag(
                "persist",
                "also save the override in the app's overrides file, so it survives a restart (the app must"
                    + " configure AppContextConfiguration.overridesFile)"),
            .json("print the key's new state as `get --json` does"),
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign set beneficiaries.pageSize 50
              ensign set beneficiaries.sortOrder name --persist
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard arguments.positionals.count == 2 else { throw UsageError("give a KEY and a VALUE") }
        let (key, text) = (arguments.positionals[0], arguments.positionals[1])
        let report = try LiveTarget.connect(arguments).set(
            key, to: EvalCommand.parseValue(text), persist: arguments.flag("persist"))
        printResult(report, json: arguments.flag("json"), console: &console)
        return ExitStatus.success
    }

    /// `key = value (source)`, or the `get --json` object.
    static func printResult(_ report: KeyReport, json: Bool, console: inout Console) {
        if json {
            console.print(LiveFormat.json(report).jsonText)
            return
        }
        let persisted = report.isPersisted ? ", persisted" : ""
        console.print(
            "\(report.key) = \(console.styled(LiveFormat.value(report.value), .bold))"
                + "  (\(LiveFormat.source(report.source))\(persisted))")
    }
}
