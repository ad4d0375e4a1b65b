import EnsignControl

/// `ensign toggle`: flips a bool flag in a running app.
enum ToggleCommand: Command {
    static let name = "toggle"
    static let summary = "Flip a bool flag in a running app."
    static let synopsis = "toggle KEY [--socket PATH | --app NAME] [--json]"
    static let details = """
        Sets an override with the opposite of the flag's current value. Only bool flags can
        be toggled; use `ensign set` for others.

        options:
          --json   print the key's new state as `get --json` does

        \(LiveTarget.help)

        example:
          ensign toggle beneficiaries.showPendingList
        """
    static let flags: Set = ["json"]
    static let options = LiveTarget.options

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let key = try arguments.onlyPositional()
        let report = try LiveTarget.connect(arguments).toggle(key)
        SetCommand.printResult(report, json: arguments.flag("json"), console: &console)
        return ExitStatus.success
    }
}
