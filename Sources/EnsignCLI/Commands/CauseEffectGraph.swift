import EnsignControl
import EnsignSupport

/// The cause-and-effect graph of transactions in Graphviz DOT: each cause points to the
/// keys it changed, and each key to the observers that ran for it, labelled with their
/// durations; slow observers are red.
struct CauseEffectGraph {
    var transactions: [TransactionReport]

    var dot: String {
        var lines = [
            "digraph ensign {",
            "  rankdir=LR;",
            "  node [fontname=\"Helvetica\", fontsize=10];",
            "  edge [color=\"#666666\"];",
        ]
        for transaction in transactions {
            let cause = "t\(transaction.id)"
            lines.append("  subgraph cluster_\(transaction.id) {")
            lines.append("    label=\(quoted("#\(transaction.id) \(LiveFormat.timeOfDay(transaction.time))"));")
            lines.append("    color=\"#cccccc\";")
            lines.append(
                "    \(quoted(cause)) [shape=box, style=\"rounded,filled\", fillcolor=\"#e8eefc\","
                    + " label=\(quoted(transaction.cause.description))];")
            for change in transaction.changes {
                let key = "\(cause)/\(change.key)"
                let label =
                    "\(change.key)\n\(LiveFormat.value(change.oldValue)) → \(LiveFormat.value(change.newValue))"
                lines.append("    \(quoted(key)) [shape=ellipse, label=\(quoted(label))];")
                lines.append("    \(quoted(cause)) -> \(quoted(key));")
            }
            for (index, run) in transaction.observers.enumerated() {
                let observer = "\(cause)/observer \(index)"
                let duration = LiveFormat.duration(microseconds: run.microseconds)
                let style =
                    run.isSlow
                    ? "color=red, fontcolor=red, penwidth=2, label=\(quoted("\(run.label)\n\(duration) (slow)"))"
                    : "label=\(quoted("\(run.label)\n\(duration)"))"
                lines.append("    \(quoted(observer)) [shape=component, \(style)];")
                let sources = run.keys.filter { key in transaction.changes.contains { $0.key == key } }
                if sources.isEmpty {
                    lines.append("    \(quoted(cause)) -> \(quoted(observer));")
                }
                for key in sources {
                    let edgeStyle = run.isSlow ? " [color=red]" : ""
                    lines.append("    \(quoted("\(cause)/\(key)")) -> \(quoted(observer))\(edgeStyle);")
                }
            }
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A DOT string literal: quotes and backslashes escaped, newlines as `\n`.
    func quoted(_ text: String) -> String {
        text.backslashQuoted(.minimal)
    }
}
