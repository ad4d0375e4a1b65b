import Ensign
import EnsignControl

/// `ensign reset`: removes overrides in a running app.
enum ResetCommand {
    static let specification = CommandSpecification(
        name: "reset", summary: "Remove a key's override (or every override) in a running app.",
        arguments: "(KEY | --all)",
        discussion: """
            The key goes back to the value its files give it. A persisted override is also
            removed from the overrides file.
            """,
        options: [
            .flag("all", "remove every override"),
            .json("print a JSON array of the keys whose override was removed"),
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign reset beneficiaries.pageSize
              ensign reset --all
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let all = arguments.flag("all")
        guard all ? arguments.positionals.isEmpty : arguments.positionals.count == 1 else {
            throw UsageError("give exactly one KEY, or --all")
        }
        let client = try LiveTarget.connect(arguments)
        let removed = all ? try client.resetAll() : try client.reset(arguments.positionals[0])
        if arguments.flag("json") {
            console.print(JSONValue.array(removed.map(JSONValue.string)).jsonText)
        } else if removed.isEmpty {
            console.print(all ? "no overrides to remove" : "\(arguments.positionals[0]) had no override")
        } else {
            for key in removed {
                let now = try? client.get(key)
                let value = now.map { "  (now \(LiveFormat.value($0.value)) from \(LiveFormat.source($0.source)))" }
                console.print("removed the override of \(key)\(value ?? "")")
            }
        }
        return ExitStatus.success
    }
}
