import EnsignControl

/// `ensign toggle`: flips a bool flag in a running app.
enum ToggleCommand {
    static let specification = CommandSpecification(
        name: "toggle", summary: "Flip a bool flag in a running app.", arguments: "KEY",
        discussion: """
            Sets an override with the opposite of the flag's current value. Only bool flags can
            be toggled; use `ensign set` for others.
            """,
        options: [.json("print the key's new state as `get --json` does")],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            example:
              ensign toggle beneficiaries.showPendingList
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let key = try arguments.onlyPositional()
        let report = try LiveTarget.connect(arguments).toggle(key)
        SetCommand.printResult(report, json: arguments.flag("json"), console: &console)
        return ExitStatus.success
    }
}
