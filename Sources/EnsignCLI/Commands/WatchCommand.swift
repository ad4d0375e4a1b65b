import Ensign
import EnsignControl

/// `ensign watch`: streams a running app's changes until interrupted.
enum WatchCommand {
    static let specification = CommandSpecification(
        name: "watch", summary: "Stream a running app's changes (all keys, or the keys given) until interrupted.",
        arguments: "[KEY…]",
        discussion: """
            Prints one line per changed key: the time, the key, old → new, and the cause. Stops
            on Ctrl-C (exit status 0) or when the app stops (exit status 1). When this terminal
            reads more slowly than the app changes, the app drops events and says how many.
            """,
        options: [.json("print each event as one JSON line, as the control protocol sends it")],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign watch
              ensign watch beneficiaries.showPendingList beneficiaries.pageSize --json
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let client = try LiveTarget.connect(arguments)
        let watch = try client.watch(keys: arguments.positionals.isEmpty ? nil : arguments.positionals)
        client.close()
        Interruption.install()
        let scope = watch.keys.map { $0.joined(separator: ", ") } ?? "every key"
        console.printError("watching \(scope) in \(client.server.app) (pid \(client.server.pid)); Ctrl-C stops")
        console.flush()
        while !Interruption.hasOccurred {
            // The kernel may hand SIGINT to another thread, which leaves this read blocked: wake
            // up now and then to look at the flag, so Ctrl-C always ends the watch promptly.
            let next = Result { () throws(ControlClientError) in try watch.next(timeout: .milliseconds(250)) }
            let event: ControlEvent?
            switch next {
            case .success(let value):
                event = value
            case .failure(.disconnected):
                console.printError("ensign watch: the app stopped")
                return ExitStatus.failure
            case .failure(let error):
                throw error
            }
            guard let event else { continue }
            if arguments.flag("json") {
                console.print(event.json.jsonText)
            } else {
                printEvent(event, console: &console)
            }
            console.flush()
        }
        watch.close()
        return ExitStatus.success
    }

    static func printEvent(_ event: ControlEvent, console: inout Console) {
        switch event {
        case .change(_, let report):
            let time = console.styled(LiveFormat.timeOfDay(report.time), .dim)
            for change in report.changes {
                let new = console.styled(LiveFormat.value(change.newValue), .bold)
                console.print(
                    "\(time)  \(change.key)  \(LiveFormat.value(change.oldValue)) → \(new)  (\(report.cause.description))"
                )
            }
        case .dropped(_, let count):
            console.print(
                console.styled("… \(count) change event\(count == 1 ? "" : "s") dropped (reading too slowly)", .yellow))
        }
    }
}
