import Ensign

/// A command line split into positional arguments, flags (`--json`) and options with values
/// (`--env production` or `--env=production`), checked against what the command accepts.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments` for a command that accepts `flags` and `options` (names without `--`).
    init(_ arguments: [String], flags allowedFlags: Set<String>, options allowedOptions: Set<String>) throws(UsageError)
    {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !onlyPositionals, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("'--\(name)' needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                let known = allowedFlags.union(allowedOptions).map { "--" + $0 }
                throw UsageError("unknown option '--\(name)'\(Suggestions.didYouMean("--" + name, among: known))")
            }
        }
    }

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `--name`.
    func option(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `--name`, in order.
    func options(_ name: String) -> [String] { values[name] ?? [] }

    /// The one positional argument, for commands that take exactly one (`ensign get KEY`).
    ///
    /// - Parameter placeholder: how the usage error names the argument.
    func onlyPositional(named placeholder: String = "KEY") throws(UsageError) -> String {
        guard positionals.count == 1, let only = positionals.first else {
            throw UsageError("give exactly one \(placeholder)")
        }
        return only
    }
}

/// A mistake in how a command was called; exits with status 2.
struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
