import Ensign
import EnsignSupport

/// A command line split into positional arguments, flags (`--json`) and options with values
/// (`--env production` or `--env=production`), checked against the options a command declares.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]
    /// The declared names, so that asking for an undeclared one is caught as the bug it is.
    private let declared: Set<String>

    /// Parses `arguments` for a command that accepts `options`; anything else that looks like
    /// an option is a usage error that names it (and the closest declared one).
    init(_ arguments: [String], accepting options: [OptionSpecification]) throws(UsageError) {
        declared = Set(options.map(\.name))
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
            var name = String(argument.drop { $0 == "-" })
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard argument.hasPrefix("--"), let option = options.first(where: { $0.name == name }) else {
                let known = options.map { "--" + $0.name }
                let typed = argument.hasPrefix("--") ? "--" + name : argument
                var hint = Suggestions.didYouMean("--" + name, among: known)
                if hint.isEmpty {
                    hint = known.isEmpty ? "; it takes none" : "; it takes \(known.joined(separator: ", "))"
                }
                throw UsageError("unknown option '\(typed)'\(hint)")
            }
            guard option.isRepeatable || (!flags.contains(name) && values[name] == nil) else {
                throw UsageError("'--\(name)' is given twice; give it once")
            }
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value") }
                flags.insert(name)
            } else if let inlineValue {
                values[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw UsageError("'--\(name)' needs a value") }
                values[name, default: []].append(arguments[index])
                index += 1
            }
        }
    }

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool {
        assert(name == "help" || declared.contains(name), "--\(name) is not declared")
        return flags.contains(name)
    }

    /// The value given for `--name`.
    func option(_ name: String) -> String? {
        assert(declared.contains(name), "--\(name) is not declared")
        return values[name]?.last
    }

    /// Every value given for `--name`, in order (for a repeatable option).
    func options(_ name: String) -> [String] {
        assert(declared.contains(name), "--\(name) is not declared")
        return values[name] ?? []
    }

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
