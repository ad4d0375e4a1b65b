/// One option a command accepts, declared once: the parser, the help text and the shell
/// completions all read this declaration, so they cannot disagree.
struct OptionSpecification: Sendable {
    /// The name without `--`: `env`.
    let name: String
    /// How help names the value (`E`, `URL[,URL…]`); `nil` for a flag, which takes none.
    let valueName: String?
    /// What the option does, one sentence or two; the help text wraps it.
    let help: String
    /// Whether it may be given more than once (`--etcd A --etcd B`); otherwise twice is a
    /// usage error, since a silently ignored value is worse than a refusal.
    let isRepeatable: Bool
    /// Whether the command needs it; the synopsis shows it without brackets. The command
    /// still checks for it, so that its error can say what the value is for.
    let isRequired: Bool
    /// Options sharing a tag exclude each other; the synopsis shows them as `[--a X | --b Y]`.
    let exclusiveGroup: String?

    /// An option that takes a value: `--env E`.
    static func value(
        _ name: String, _ valueName: String, _ help: String, repeatable: Bool = false, required: Bool = false,
        exclusiveGroup: String? = nil
    ) -> OptionSpecification {
        OptionSpecification(
            name: name, valueName: valueName, help: help, isRepeatable: repeatable, isRequired: required,
            exclusiveGroup: exclusiveGroup)
    }

    /// An option that takes no value: `--json`.
    static func flag(_ name: String, _ help: String, exclusiveGroup: String? = nil) -> OptionSpecification {
        OptionSpecification(
            name: name, valueName: nil, help: help, isRepeatable: false, isRequired: false,
            exclusiveGroup: exclusiveGroup)
    }

    /// `--json`, which most commands take; only what it prints differs.
    static func json(_ help: String, exclusiveGroup: String? = nil) -> OptionSpecification {
        flag("json", help, exclusiveGroup: exclusiveGroup)
    }

    /// Whether it is a flag (takes no value).
    var isFlag: Bool { valueName == nil }

    /// `--env E` or `--json`, as help and the synopsis show it.
    var label: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
