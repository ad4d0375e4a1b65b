import Ensign
import EnsignControl

/// `ensign log`: a running app's recent transactions, as text, JSON or a Graphviz graph.
enum LogCommand {
    static let specification = CommandSpecification(
        name: "log", summary: "Show a running app's recent transactions: cause, keys changed, observers run.",
        discussion: """
            Each transaction shows its cause (a file reload, an override by the CLI, code, a
            preference, …), the keys it changed (old → new) and the observers that ran, with
            how long each took; observers slower than the app's threshold are marked SLOW.
            """,
        options: [
            .value("limit", "N", "the last N transactions (default 50)"),
            .flag(
                "dot",
                "print the cause-and-effect graph as Graphviz DOT: cause → keys changed → observers, with durations,"
                    + " slow observers in red", exclusiveGroup: "format"),
            .json("print a JSON array of transactions", exclusiveGroup: "format"),
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign log --limit 10
              ensign log --dot | dot -Tsvg > log.svg
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard !(arguments.flag("dot") && arguments.flag("json")) else {
            throw UsageError("give --dot or --json, not both")
        }
        let limit = try arguments.option("limit").map { text throws(UsageError) -> Int in
            guard let limit = Int(text), limit > 0 else { throw UsageError("--limit must be a positive number") }
            return limit
        }
        let transactions = try LiveTarget.connect(arguments).log(limit: limit)
        if arguments.flag("json") {
            console.print(try LiveFormat.json(transactions).jsonText)
        } else if arguments.flag("dot") {
            console.print(CauseEffectGraph(transactions: transactions).dot)
        } else {
            for transaction in transactions { printTransaction(transaction, console: &console) }
        }
        return ExitStatus.success
    }

    static func printTransaction(_ transaction: TransactionReport, console: inout Console) {
        let context = transaction.context == "root" ? "" : "  [\(transaction.context)]"
        console.print(
            console.styled("#\(transaction.id)", .bold) + " \(transaction.time)  \(transaction.cause.description)"
                + context)
        for change in transaction.changes {
            console.print(
                "    \(change.key): \(LiveFormat.value(change.oldValue)) → \(LiveFormat.value(change.newValue))")
        }
        for run in transaction.observers {
            let line = "    ran \(run.label): \(LiveFormat.duration(microseconds: run.microseconds))"
            console.print(run.isSlow ? console.styled(line + "  SLOW", .red) : line)
        }
        for diagnostic in transaction.diagnostics { console.print(console.styled("    " + diagnostic, .red)) }
    }
}
