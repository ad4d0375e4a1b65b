import EnsignControl

/// `ensign status`: the app's health and its control server's state.
enum StatusCommand {
    static let specification = CommandSpecification(
        name: "status",
        summary: "Show a running app's health: environment, failed reloads, overrides, connections.",
        options: [.json("print the status as one JSON object")],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            exit status: 0 when the app's configuration is in force as loaded, 1 when its last
            reload failed (it keeps the last good values; the diagnostics say why).
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let status = try LiveTarget.connect(arguments).status()
        if arguments.flag("json") {
            console.print(try LiveFormat.json(status).jsonText)
        } else {
            var table = TableFormatter(header: ["FIELD", "VALUE"])
            table.add(["app", "\(status.server.app) (pid \(status.server.pid))"])
            table.add(["environment", status.server.environment])
            table.add(["ensign", "\(status.server.ensignVersion), protocol \(status.server.protocolVersion)"])
            table.add(["health", status.isDegraded ? "degraded since \(status.degradedSince ?? "?")" : "ok"])
            table.add(["keys", "\(status.keyCount), \(status.overrideCount) overridden"])
            table.add(["writes", status.acceptsWrites ? "accepted" : "refused (production)"])
            table.add(["connections", "\(status.connections), \(status.watchers) watching"])
            table.add(["started", status.startedAt])
            for detail in status.details ?? [] { table.add([detail.name, detail.value]) }
            for line in table.lines(console: console).dropFirst() {
                console.print(line.hasPrefix("health") && status.isDegraded ? console.styled(line, .red) : line)
            }
            for diagnostic in status.diagnostics { console.print("  " + diagnostic) }
            let flagProblems = status.flagProblems ?? []
            if !flagProblems.isEmpty {
                console.print("flags with errors in their files (run 'ensign validate' on them):")
                for problem in flagProblems { console.print("  " + problem) }
            }
        }
        return status.isDegraded ? ExitStatus.failure : ExitStatus.success
    }
}
