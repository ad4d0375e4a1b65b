import Ensign
import EnsignControl

/// `ensign stats`: how often a running app evaluated its keys, by variant and reason.
enum StatsCommand {
    static let specification = CommandSpecification(
        name: "stats", summary: "Show how often a running app evaluated its flags, by variant and reason.",
        arguments: "[KEY…]",
        discussion: """
            Counts every evaluation since the app turned counting on (it calls
            context.countEvaluations(); ensign demo and ensign serve do): per key, the
            evaluations, how many gave each variant with each reason, and when the key was
            last evaluated. With keys, only those (a key never evaluated shows 0). Without,
            every key evaluated, then the defined keys never evaluated. The tools' own reads
            (ensign list, get, explain) are not counted.
            """,
        options: [
            .json(
                "print one JSON object: since, totalEvaluations, undefinedKeyEvaluations, keys (key, evaluations,"
                    + " lastEvaluated, outcomes of variant, reason and count), notEvaluated")
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign stats
              ensign stats transfers.newFlow --json
              ensign stats --app banking
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let client = try LiveTarget.connect(arguments)
        let report = try client.stats(keys: arguments.positionals.isEmpty ? nil : arguments.positionals)
        if arguments.flag("json") {
            console.print(try LiveFormat.json(report).jsonText)
            return ExitStatus.success
        }
        var table = TableFormatter(header: ["KEY", "EVALUATIONS", "VARIANT", "REASON", "COUNT", "LAST EVALUATED"])
        for key in report.keys {
            let last = key.lastEvaluated.map(LiveFormat.timeOfDay) ?? "never"
            guard !key.outcomes.isEmpty else {
                table.add([key.key, "0", "", "", "", last])
                continue
            }
            // The key's own columns on its first outcome only, so a key's rows read as one group.
            for (index, outcome) in key.outcomes.enumerated() {
                let isFirst = index == 0
                table.add([
                    isFirst ? key.key : "", isFirst ? String(key.evaluations) : "", outcome.variant ?? "-",
                    outcome.reason, String(outcome.count), isFirst ? last : "",
                ])
            }
        }
        for line in table.lines(console: console) { console.print(line) }
        var summary = "\(report.totalEvaluations) evaluations since \(report.since)"
        if report.undefinedKeyEvaluations > 0 {
            summary += ", \(report.undefinedKeyEvaluations) of keys no definition has"
        }
        console.print(summary)
        if arguments.positionals.isEmpty, !report.notEvaluated.isEmpty {
            console.print(
                "never evaluated (\(report.notEvaluated.count)): " + report.notEvaluated.joined(separator: ", "))
        }
        return ExitStatus.success
    }
}
