/// One `ensign` command, or a subcommand such as `fleet set`, declared once as data: its
/// name, what it takes and what it does. The parser, `--help`, `ensign help` and the shell
/// completions are all derived from this value, so an option exists everywhere or nowhere.
struct CommandSpecification: Sendable {
    /// What a command does with its parsed arguments; returns the exit status.
    typealias Action = @Sendable (ParsedArguments, inout Console) throws -> Int32

    /// The words that call it after `ensign`: `["fleet", "set"]`.
    private(set) var path: [String]
    /// One line for the command list.
    let summary: String
    /// The positional arguments as the synopsis shows them: `KEY VALUE`, `PATH…`, `KEY | --all`.
    let arguments: String
    /// Paragraphs after the summary: what it does, before the options.
    let discussion: String
    /// The options it accepts, under their help headings: its own first, then shared ones.
    let optionGroups: [OptionGroup]
    /// Paragraphs after the options: exit status, examples.
    let epilogue: String
    /// Its subcommands; a command with subcommands has no action of its own.
    private(set) var subcommands: [CommandSpecification]
    /// What it does; `nil` for a command that only groups subcommands.
    let action: Action?

    /// A command that runs: `options` are its own (the `options:` heading), `sharedOptions`
    /// the groups it shares with other commands.
    init(
        name: String, summary: String, arguments: String = "", discussion: String = "",
        options: [OptionSpecification] = [], sharedOptions: [OptionGroup] = [], epilogue: String = "",
        run action: @escaping Action
    ) {
        path = [name]
        self.summary = summary
        self.arguments = arguments
        self.discussion = discussion
        optionGroups = (options.isEmpty ? [] : [OptionGroup("options", options)]) + sharedOptions
        self.epilogue = epilogue
        subcommands = []
        self.action = action
    }

    /// A command whose first argument names one of `subcommands` (`fleet list|get|set|reset`).
    init(
        name: String, summary: String, discussion: String = "", epilogue: String = "",
        subcommands: [CommandSpecification]
    ) {
        path = [name]
        self.summary = summary
        arguments = ""
        self.discussion = discussion
        optionGroups = []
        self.epilogue = epilogue
        self.subcommands = subcommands.map { $0.nested(under: name) }
        action = nil
    }

    /// The name as typed: `set`.
    var name: String { path[path.count - 1] }

    /// How it is called after `ensign`: `fleet set`.
    var invocation: String { path.joined(separator: " ") }

    /// Every option it accepts, in declaration order.
    var options: [OptionSpecification] { optionGroups.flatMap(\.options) }

    /// The subcommand called `name`, if there is one.
    func subcommand(named name: String) -> CommandSpecification? {
        subcommands.first { $0.name == name }
    }

    /// The same command with `parent` before its path (and its subcommands' paths).
    private func nested(under parent: String) -> CommandSpecification {
        var nested = self
        nested.path.insert(parent, at: 0)
        nested.subcommands = subcommands.map { $0.nested(under: parent) }
        return nested
    }
}
