import Ensign
import EnsignControl

/// `ensign ps`: the running apps with a control socket.
enum PsCommand {
    static let specification = CommandSpecification(
        name: "ps", summary: "List running apps with a control socket (stale sockets are removed).",
        discussion: """
            Looks in the runtime directory ($ENSIGN_RUNTIME_DIR, else $XDG_RUNTIME_DIR/ensign,
            else /tmp/ensign-<uid>) for sockets named <app>.<pid>.sock, asks each app who it is,
            and removes sockets whose app is gone.
            """,
        options: [.json("print a JSON array of objects: app, pid, environment, ensignVersion, socket")],
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let directory = ControlRuntimeDirectory.defaultPath
        let apps = try RunningApp.all(in: directory)
        var rows: [JSONValue] = []
        for app in apps {
            let hello = try? ControlClient.connect(to: .socket(app.socketPath), timeout: .seconds(2)).server
            rows.append([
                "app": .string(app.name), "pid": .int(Int(app.pid)),
                "environment": hello.map { .string($0.environment) } ?? .null,
                "ensignVersion": hello.map { .string($0.ensignVersion) } ?? .null,
                "socket": .string(app.socketPath),
            ])
        }
        if arguments.flag("json") {
            console.print(JSONValue.array(rows).jsonText)
            return ExitStatus.success
        }
        guard !rows.isEmpty else {
            console.print("no running app with a control socket in \(directory)")
            return ExitStatus.success
        }
        var table = TableFormatter(header: ["APP", "PID", "ENVIRONMENT", "VERSION", "SOCKET"])
        for row in rows {
            table.add([
                row["app"]?.stringValue ?? "", row["pid"]?.jsonText ?? "", row["environment"]?.stringValue ?? "?",
                row["ensignVersion"]?.stringValue ?? "?", row["socket"]?.stringValue ?? "",
            ])
        }
        for line in table.lines(console: console) { console.print(line) }
        return ExitStatus.success
    }
}
