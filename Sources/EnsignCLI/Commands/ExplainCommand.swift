import Ensign
import EnsignControl

/// `ensign explain`: why a key has its value, layer by layer.
enum ExplainCommand {
    static let specification = CommandSpecification(
        name: "explain",
        summary: "Show every layer that has a value for a key, the winner marked, and its last changes.",
        arguments: "KEY",
        discussion: """
            Lists the layers lowest first (definition, environment, deployment files, fleet,
            targeting, preference, override, scope override) with the value each has and the
            file:line (or etcd endpoint and revision) that sets it; the value in force is marked
            with an arrow. Then the last transactions that changed the key: when, why, old → new.
            """,
        options: [.json("print the explanation as one JSON object")],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            example:
              ensign explain beneficiaries.pageSize
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let key = try arguments.onlyPositional()
        let explanation = try LiveTarget.connect(arguments).explain(key)
        if arguments.flag("json") {
            console.print(try LiveFormat.json(explanation).jsonText)
            return ExitStatus.success
        }
        let value = console.styled(LiveFormat.value(explanation.value), .bold)
        console.print("\(explanation.key) = \(value)  (\(explanation.reason))")
        if let type = explanation.type {
            let place = explanation.definedAt?.position.map { ", defined at \($0)" } ?? ""
            console.print("  \(type) \(explanation.kind ?? "")\(place)")
        }
        if let description = explanation.description { console.print("  \(description)") }
        console.print()
        console.print(console.styled("layers, lowest first:", .bold))
        var table = TableFormatter(header: ["", "LAYER", "VALUE", "WHERE"])
        for layer in explanation.layers {
            var place = layer.source.position ?? ""
            if let actor = layer.source.actor { place += (place.isEmpty ? "" : " ") + "set by \(actor)" }
            if let time = layer.source.time { place += " at \(time)" }
            if let note = layer.note { place += (place.isEmpty ? "" : "  ") + "(\(note))" }
            let layerName = ValueLayer(wireName: layer.source.layer)?.description ?? layer.source.layer
            table.add([layer.isWinner ? "→" : "", layerName, layer.value.jsonText, place])
        }
        if explanation.layers.isEmpty { table.add(["→", "code default", "(the app's code default)", ""]) }
        for (index, line) in table.lines(console: console).enumerated() where index > 0 {
            let isWinner = index <= explanation.layers.count && explanation.layers[index - 1].isWinner
            console.print("  " + (isWinner ? console.styled(line, .green) : line))
        }
        console.print()
        guard !explanation.recentChanges.isEmpty else {
            console.print("no changes since the app started")
            return ExitStatus.success
        }
        console.print(console.styled("last changes:", .bold))
        for transaction in explanation.recentChanges {
            for change in transaction.changes where change.key == explanation.key {
                console.print(
                    "  #\(transaction.id) \(transaction.time)  \(LiveFormat.value(change.oldValue)) → "
                        + "\(LiveFormat.value(change.newValue))  (\(transaction.cause.description))")
            }
        }
        return ExitStatus.success
    }
}
