/// One `ensign` subcommand: its help text, what options it accepts, and what it does.
protocol Command {
    /// The subcommand's name, as typed: `validate`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The synopsis: `validate PATH… [--env E] [--json] [--strict]`.
    static var synopsis: String { get }
    /// Paragraphs after the synopsis: what it does, each option, examples.
    static var details: String { get }
    /// Options that take no value (without `--`).
    static var flags: Set<String> { get }
    /// Options that take a value (without `--`).
    static var options: Set<String> { get }
    /// Runs the command; returns the exit status (0 ok, 1 failure or invalid input).
    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32
}

extension Command {
    /// `--help`: usage first, for a quick look.
    static var help: String {
        "usage: ensign \(synopsis)\n\n\(summary)\n\n\(details)"
    }

    /// `ensign help COMMAND`: the same text laid out as a manual page.
    static var manual: String {
        let indented = details.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return """
            NAME
                ensign \(name) — \(summary)

            SYNOPSIS
                ensign \(synopsis)

            DESCRIPTION
            \(indented)

            SEE ALSO
                ensign help, ensign completions bash|zsh, the DebugCLI article of the documentation
            """
    }
}

/// Exit statuses shared by every command.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}

/// A command's description and entry point as values, so the tool can list and dispatch
/// commands without existential metatypes.
struct CommandEntry {
    let name: String
    let summary: String
    let synopsis: String
    let help: String
    let manual: String
    let flags: Set<String>
    let options: Set<String>
    let run: (ParsedArguments, inout Console) throws -> Int32

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        synopsis = C.synopsis
        help = C.help
        manual = C.manual
        flags = C.flags
        options = C.options
        run = { arguments, console in try C.run(arguments, console: &console) }
    }
}
