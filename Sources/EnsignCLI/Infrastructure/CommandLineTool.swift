import Ensign

/// The `ensign` executable: finds the subcommand, parses its options and runs it.
enum CommandLineTool {
    static var commands: [CommandEntry] {
        [
            CommandEntry(ValidateCommand.self),
            CommandEntry(EvalCommand.self),
            CommandEntry(ListCommand.self),
            CommandEntry(GetCommand.self),
            CommandEntry(ExplainCommand.self),
            CommandEntry(SetCommand.self),
            CommandEntry(ToggleCommand.self),
            CommandEntry(ResetCommand.self),
            CommandEntry(WatchCommand.self),
            CommandEntry(LogCommand.self),
            CommandEntry(StatusCommand.self),
            CommandEntry(PsCommand.self),
            CommandEntry(MenuCommand.self),
            CommandEntry(DemoCommand.self),
            CommandEntry(SchemaCommand.self),
            CommandEntry(GenerateCommand.self),
            CommandEntry(FleetCommand.self),
            CommandEntry(CompletionsCommand.self),
        ]
    }

    static func run(_ arguments: [String]) -> Int32 {
        var console = Console()
        defer { console.flush() }
        guard let first = arguments.first else {
            console.printError(overview)
            return ExitStatus.usage
        }
        switch first {
        case "--version", "version":
            console.print("ensign \(EnsignVersion.current)")
            return ExitStatus.success
        case "-h", "--help":
            console.print(overview)
            return ExitStatus.success
        case "help":
            return help(for: arguments.dropFirst().first, console: &console)
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let names = commands.map(\.name)
            console.printError(
                "ensign: unknown command '\(first)'\(Suggestions.didYouMean(first, among: names))\n"
                    + "Run 'ensign --help' for the list of commands.")
            return ExitStatus.usage
        }
        do {
            let parsed = try ParsedArguments(
                Array(arguments.dropFirst()), flags: command.flags, options: command.options)
            if parsed.flag("help") {
                console.print(command.help)
                return ExitStatus.success
            }
            return try command.run(parsed, &console)
        } catch let error as UsageError {
            console.printError("ensign \(command.name): \(error.message)\nusage: ensign \(command.synopsis)")
            return ExitStatus.usage
        } catch {
            console.printError("ensign \(command.name): \(error)")
            return ExitStatus.failure
        }
    }

    static func help(for name: String?, console: inout Console) -> Int32 {
        guard let name else {
            console.print(overview)
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            console.printError(
                "ensign help: no command '\(name)'\(Suggestions.didYouMean(name, among: commands.map(\.name)))")
            return ExitStatus.usage
        }
        console.print(command.manual)
        return ExitStatus.success
    }

    static var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map { "  \($0.name.padding(to: width))  \($0.summary)" }
        return """
            usage: ensign <command> [options]

            Ensign's command-line tool: validate config files, evaluate flags offline, and
            toggle flags in a running app.

            commands:
            \(lines.joined(separator: "\n"))

            Run 'ensign help <command>' or 'ensign <command> --help' for details.
            Exit status: 0 success, 1 failure or invalid input, 2 usage error.
            """
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
