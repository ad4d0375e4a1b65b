import EnsignTestTraits
import Testing

@testable import EnsignCLI

/// Tries to break the promise that one declaration per option drives parsing, help and
/// completions: each test derives what it expects from `CommandLineTool.commands` and checks
/// what the real `ensign` binary does.
@Suite("Command declarations drive parsing, help and completions")
struct CommandSpecificationTests {
    /// Every command that runs: the top-level ones and each subcommand (`fleet set`).
    static let leaves: [CommandSpecification] = CommandLineTool.commands.flatMap(leaves(of:))

    static func leaves(of command: CommandSpecification) -> [CommandSpecification] {
        command.subcommands.isEmpty ? [command] : command.subcommands.flatMap(leaves(of:))
    }

    /// Every option name some command declares.
    static let allOptionNames = Set(leaves.flatMap { $0.options.map(\.name) })

    @Test("Every command rejects each option it does not declare, before doing anything, with exit 2", .blocksItsThread)
    func undeclaredOptionsAreUsageErrors() throws {
        for command in Self.leaves {
            let declared = Set(command.options.map(\.name))
            let foreign = Self.allOptionNames.subtracting(declared).sorted() + ["no-such-option"]
            for name in foreign {
                // In process, every foreign option; through the binary, the made-up one and one
                // another command takes (the one most likely to be passed by mistake).
                #expect(throws: UsageError.self, "\(command.invocation) --\(name)") {
                    try ParsedArguments(["--" + name, "value"], accepting: command.options)
                }
            }
            for name in [foreign[0], "no-such-option"] {
                let result = try CLIRunner.run(command.path + ["--" + name, "x"])
                #expect(result.status == 2, "\(command.invocation) --\(name)")
                #expect(result.output.isEmpty)
                #expect(result.errors.hasPrefix("ensign \(command.invocation): unknown option '--\(name)'"))
                #expect(result.errors.contains("Run 'ensign help \(command.invocation)'"))
            }
        }
    }

    @Test("--help and the manual page list exactly the declared options, each once", .blocksItsThread)
    func helpListsTheDeclaredOptions() throws {
        for command in Self.leaves {
            let declared = command.options.map(\.name).sorted()
            for text in [try CLIRunner.run(command.path + ["--help"]), try CLIRunner.run(["help"] + command.path)]
                .map(\.output)
            {
                // Option rows are the only lines that start with "--" after their indentation.
                let listed = text.split(separator: "\n").compactMap { line -> String? in
                    let trimmed = line.drop { $0 == " " }
                    guard trimmed.hasPrefix("--") else { return nil }
                    return String(trimmed.dropFirst(2).prefix { $0 != " " })
                }
                #expect(listed.sorted() == declared, "\(command.invocation)")
            }
            for name in declared {
                #expect(command.synopsis.contains("--" + name), "\(command.invocation) synopsis lacks --\(name)")
            }
        }
    }

    @Test("The bash completions offer exactly each command's declared options")
    func completionsOfferTheDeclaredOptions() throws {
        let bash = try CLIRunner.run(["completions", "bash"]).output
        for command in Self.leaves {
            let words = (command.options.map { "--" + $0.name } + ["--help"]).sorted().joined(separator: " ")
            #expect(bash.contains(" \(command.name)) options=\"\(words)\" ;;"), "\(command.invocation)")
        }
        #expect(bash.contains("compgen -W \"list get set reset --help\""))
        let zsh = try CLIRunner.run(["completions", "zsh"]).output
        #expect(zsh.contains("_values 'subcommand' 'list["))
        #expect(zsh.contains("'*--etcd=["))
    }

    @Test("Declarations are well formed: unique names, help for each, no --help of their own")
    func declarationsAreWellFormed() {
        for command in Self.leaves {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.invocation) declares an option twice")
            #expect(!names.contains("help"), "\(command.invocation): --help is everyone's")
            #expect(command.options.allSatisfy { !$0.help.isEmpty && !$0.name.hasPrefix("-") })
            #expect(command.action != nil && !command.summary.isEmpty)
        }
        let topNames = CommandLineTool.commands.map(\.name)
        #expect(Set(topNames).count == topNames.count)
    }

    @Test(
        "Every fleet subcommand parses its command line and gets as far as etcd (exit 1, not 2)",
        arguments: [
            ["list", "--flags", "flags/", "--json"],
            ["get", "beneficiaries.pageSize", "--json", "--flags=flags/"],
            ["set", "beneficiaries.pageSize", "50", "--if-revision", "0", "--json"],
            ["reset", "beneficiaries.pageSize", "--if-revision", "3"],
            ["reset", "--all", "--json", "--user", "admin"],
        ])
    func fleetSubcommandsParse(arguments: [String]) throws {
        let etcd = ["--etcd", "http://127.0.0.1:1", "--etcd", "http://127.0.0.1:2", "--prefix", "/p/"]
        let result = try CLIRunner.run(["fleet"] + arguments + etcd)
        #expect(result.status == 1, "\(result.errors)")
        #expect(!result.errors.contains("usage:"))
        let help = try CLIRunner.run(["fleet", arguments[0], "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("usage: ensign fleet \(arguments[0]) "))
    }

    @Test("A fleet subcommand refuses the options only another subcommand takes")
    func fleetSubcommandsHaveTheirOwnOptions() throws {
        let etcd = ["--etcd", "http://127.0.0.1:1", "--prefix", "/p/"]
        for (arguments, option) in [
            (["list", "--all"], "--all"), (["get", "k", "--if-revision", "1"], "--if-revision"),
        ] {
            let result = try CLIRunner.run(["fleet"] + arguments + etcd)
            #expect(result.status == 2)
            #expect(result.errors.contains("unknown option '\(option)'"))
        }
    }

    @Test(
        "A misspelled or missing subcommand is a usage error, with a suggestion when one is close",
        arguments: [
            (["fleet", "lst"], "did you mean 'list'?"), (["fleet", "sett", "k", "v"], "did you mean 'set'?"),
            (["fleet", "resett", "k"], "did you mean 'reset'?"),
            (["fleet", "frobnicate"], "give list, get, set or reset"),
            (["fleet", "--etcd", "http://127.0.0.1:1", "list"], "give a subcommand first"),
            (["fleet"], "give a subcommand first"), (["help", "fleet", "gett"], "did you mean 'get'?"),
        ])
    func misspelledSubcommand(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("fleet --help lists the subcommands, and help fleet SUBCOMMAND prints its own manual page")
    func fleetHelp() throws {
        let help = try CLIRunner.run(["fleet", "--help"])
        #expect(help.status == 0)
        for name in ["list", "get", "set", "reset"] {
            #expect(help.output.contains("\n  \(name) "))
            #expect(help.output.contains("ensign fleet \(name) "))
            let manual = try CLIRunner.run(["help", "fleet", name])
            #expect(manual.status == 0 && manual.output.hasPrefix("NAME\n    ensign fleet \(name) — "))
        }
    }

    @Test("An option that is not repeatable may be given once; --etcd may be repeated")
    func repetition() throws {
        let twice = try CLIRunner.run(["validate", "flags/", "--env", "development", "--env", "production"])
        #expect(twice.status == 2 && twice.errors.contains("'--env' is given twice"))
        let etcd = try ParsedArguments(
            ["--etcd", "http://a:1", "--etcd=http://b:2", "--prefix", "/p/"],
            accepting: FleetCommand.list.options)
        #expect(etcd.options("etcd") == ["http://a:1", "http://b:2"])
    }

    @Test("A command that declares no arguments refuses a stray one", arguments: ["ps", "schema", "status", "log"])
    func strayArgument(command: String) throws {
        let result = try CLIRunner.run([command, "stray"])
        #expect(result.status == 2)
        #expect(result.errors.contains("unexpected argument 'stray'"))
    }

    @Test("The synopsis shows required options bare, exclusive ones as alternatives, others in brackets")
    func synopsis() {
        #expect(
            EvalCommand.specification.synopsis
                == "eval KEY --flags PATH [--env E] [--context JSON] [--type T] [--default V] [--json]")
        #expect(
            LogCommand.specification.synopsis
                == "log [--limit N] [--dot | --json] [--socket PATH | --app NAME]")
        #expect(ResetCommand.specification.synopsis == "reset (KEY | --all) [--json] [--socket PATH | --app NAME]")
    }
}
