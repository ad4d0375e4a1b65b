/// The help texts, all derived from the declaration: the synopsis from the arguments and the
/// options, the option lists from the option groups.
extension CommandSpecification {
    /// How wide help text is wrapped, so it reads in an 80-column terminal with `less` margins
    /// and in the 92-column documentation blocks.
    static let textWidth = 88

    /// The synopsis after `ensign `: `get KEY [--json] [--socket PATH | --app NAME]`; for a
    /// command with subcommands, `fleet list|get|set|reset …`.
    var synopsis: String {
        guard subcommands.isEmpty else {
            return invocation + " " + subcommands.map(\.name).joined(separator: "|") + " …"
        }
        // An option the arguments already show (`reset KEY | --all`) is not shown twice.
        // Required options come first, so the synopsis reads as the shortest valid command line.
        let remaining = options.filter { !arguments.contains("--" + $0.name) }
        let shown = remaining.filter(\.isRequired) + remaining.filter { !$0.isRequired }
        var words = [invocation] + (arguments.isEmpty ? [] : [arguments])
        var index = 0
        while index < shown.count {
            let option = shown[index]
            var alternatives = [option]
            while let group = option.exclusiveGroup, index + alternatives.count < shown.count,
                shown[index + alternatives.count].exclusiveGroup == group
            {
                alternatives.append(shown[index + alternatives.count])
            }
            index += alternatives.count
            let text = alternatives.map(\.label).joined(separator: " | ")
            words.append(option.isRequired && alternatives.count == 1 ? text : "[\(text)]")
        }
        return words.joined(separator: " ")
    }

    /// The synopses of the command, or of each of its subcommands.
    var synopses: [String] {
        subcommands.isEmpty ? [synopsis] : subcommands.flatMap(\.synopses)
    }

    /// The `usage:` lines errors and `--help` start with.
    var usage: String {
        synopses.enumerated().map { ($0.offset == 0 ? "usage: ensign " : "       ensign ") + $0.element }
            .joined(separator: "\n")
    }

    /// `--help`: usage first, for a quick look.
    var help: String {
        "\(usage)\n\n\(summary)\n\n\(details)"
    }

    /// `ensign help COMMAND`: the same text laid out as a manual page.
    var manual: String {
        let indented = details.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return """
            NAME
                ensign \(invocation) — \(summary)

            SYNOPSIS
            \(synopses.map { "    ensign " + $0 }.joined(separator: "\n"))

            DESCRIPTION
            \(indented)

            SEE ALSO
                ensign help, ensign completions bash|zsh, the DebugCLI article of the documentation
            """
    }

    /// The paragraphs after the summary: discussion, subcommands or options, epilogue.
    var details: String {
        var paragraphs = discussion.isEmpty ? [] : [discussion]
        if !subcommands.isEmpty {
            let width = subcommands.map(\.name.count).max() ?? 0
            let lines = subcommands.map { "  \($0.name.padding(to: width))   \($0.summary)" }
            paragraphs.append("subcommands:\n" + lines.joined(separator: "\n"))
            paragraphs.append("Run 'ensign help \(invocation) <subcommand>' for a subcommand's options.")
        }
        let width = options.map(\.label.count).max() ?? 0
        for group in optionGroups {
            var lines = ["\(group.title):"]
            for option in group.options {
                let wrapped = Self.wrap(option.help, width: Self.textWidth - width - 5)
                for (index, line) in wrapped.enumerated() {
                    lines.append("  " + (index == 0 ? option.label : "").padding(to: width) + "   " + line)
                }
            }
            if let note = group.note {
                lines += Self.wrap(note, width: Self.textWidth - 2).map { "  " + $0 }
            }
            paragraphs.append(lines.joined(separator: "\n"))
        }
        if !epilogue.isEmpty { paragraphs.append(epilogue) }
        return paragraphs.joined(separator: "\n\n")
    }

    /// `text` broken into lines of at most `width` characters at spaces (a longer word stays whole).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
