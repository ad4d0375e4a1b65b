import Ensign
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `ensign` executable: finds the command (and subcommand), parses its options and runs it.
enum CommandLineTool {
    /// Every command, in the order the overview lists them.
    static let commands: [CommandSpecification] = [
        ValidateCommand.specification,
        DebtCommand.specification,
        EvalCommand.specification,
        ListCommand.specification,
        GetCommand.specification,
        ExplainCommand.specification,
        SetCommand.specification,
        ToggleCommand.specification,
        ResetCommand.specification,
        WatchCommand.specification,
        LogCommand.specification,
        StatsCommand.specification,
        StatusCommand.specification,
        PsCommand.specification,
        MenuCommand.specification,
        DemoCommand.specification,
        ServeCommand.specification,
        SchemaCommand.specification,
        GenerateCommand.specification,
        ExportCommand.specification,
        FleetCommand.specification,
        CompletionsCommand.specification,
    ]

    /// Runs the command `arguments` name and returns its exit status (for tests and callers
    /// in the same process: everything the command made is freed on return).
    static func run(_ arguments: [String]) -> Int32 {
        var console = Console()
        defer { console.flush() }
        return run(arguments, console: &console)
    }

    /// Runs the command `arguments` name as the whole process, and exits with its status
    /// while what the command left with the console (``Console/keepUntilExit(_:)``) is still
    /// alive: the system takes it back at once, where freeing it piece by piece (10,000
    /// definitions after a `validate`) would cost milliseconds of the command's wall time.
    static func runAsProcess(_ arguments: [String]) -> Never {
        var console = Console()
        let status = run(arguments, console: &console)
        console.flush()
        exit(status)
    }

    private static func run(_ arguments: [String], console: inout Console) -> Int32 {
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
            return help(for: Array(arguments.dropFirst()), console: &console)
        default:
            break
        }
        guard let top = commands.first(where: { $0.name == first }) else {
            console.printError(
                "ensign: unknown command '\(first)'\(Suggestions.didYouMean(first, among: commands.map(\.name)))\n"
                    + "Run 'ensign --help' for the list of commands.")
            return ExitStatus.usage
        }
        var command = top
        var rest = arguments.dropFirst()
        do {
            while !command.subcommands.isEmpty {
                if let word = rest.first, word == "-h" || word == "--help" {
                    console.print(command.help)
                    return ExitStatus.success
                }
                command = try subcommand(of: command, named: rest.first)
                rest = rest.dropFirst()
            }
            let parsed = try ParsedArguments(Array(rest), accepting: command.options)
            if parsed.flag("help") {
                console.print(command.help)
                return ExitStatus.success
            }
            // A command that declares no arguments takes none, so a stray word is never ignored.
            if command.arguments.isEmpty, let extra = parsed.positionals.first {
                throw UsageError("unexpected argument '\(extra)'; \(command.invocation) takes no arguments")
            }
            guard let action = command.action else { return ExitStatus.usage }
            return try action(parsed, &console)
        } catch let error as UsageError {
            console.printError(
                "ensign \(command.invocation): \(error.message)\n\(command.usage)\n"
                    + "Run 'ensign help \(command.invocation)' for its arguments and options.")
            return ExitStatus.usage
        } catch {
            // Failures keep the top command's prefix (`ensign fleet: …`), as scripts may match it.
            console.printError("ensign \(top.name): \(error)")
            return ExitStatus.failure
        }
    }

    /// The subcommand of `command` that `word` names; a usage error (with the closest name)
    /// when it names none, or is missing, or is an option given before it.
    static func subcommand(of command: CommandSpecification, named word: String?) throws(UsageError)
        -> CommandSpecification
    {
        let names = command.subcommands.map(\.name)
        guard let word, !word.hasPrefix("-") else {
            throw UsageError("give a subcommand first: \(names.choices)")
        }
        guard let subcommand = command.subcommand(named: word) else {
            let suggestion = Suggestions.didYouMean(word, among: names)
            throw UsageError(
                "unknown subcommand '\(word)'\(suggestion.isEmpty ? "; give \(names.choices)" : suggestion)")
        }
        return subcommand
    }

    /// `ensign help [COMMAND [SUBCOMMAND]]`: the overview, or a command's manual page.
    static func help(for words: [String], console: inout Console) -> Int32 {
        guard let name = words.first else {
            console.print(overview)
            return ExitStatus.success
        }
        guard var command = commands.first(where: { $0.name == name }) else {
            console.printError(
                "ensign help: no command '\(name)'\(Suggestions.didYouMean(name, among: commands.map(\.name)))")
            return ExitStatus.usage
        }
        for word in words.dropFirst() where !command.subcommands.isEmpty {
            do {
                command = try subcommand(of: command, named: word)
            } catch {
                console.printError("ensign help \(command.invocation): \(error.message)")
                return ExitStatus.usage
            }
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

extension [String] {
    /// The words as a choice in a sentence: `list, get, set or reset`.
    var choices: String {
        count < 2 ? joined() : dropLast().joined(separator: ", ") + " or " + self[count - 1]
    }
}
