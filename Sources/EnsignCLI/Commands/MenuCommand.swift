import Ensign
import EnsignDebugMenu
import Synchronization

/// `ensign menu`: the interactive terminal debug menu for a running app.
enum MenuCommand {
    static let specification = CommandSpecification(
        name: "menu", summary: "Browse, search, toggle and edit a running app's flags in a full-screen menu.",
        discussion: """
            A full-screen menu (works over ssh and in a plain 80×24 terminal): keys grouped by
            namespace, overridden ones marked ●, values updating live when they change elsewhere.

            keys:
              ↑/↓, j/k   move                 space/enter  toggle a bool
              e          edit a value         r            reset the override
              p          persist the value    /            search
              ?          help                 q, Ctrl-C    quit
            """,
        sharedOptions: [LiveTarget.options],
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let backend = ControlMenuBackend(client: try LiveTarget.connect(arguments))
        let session = try TerminalSession()
        defer { session.end() }
        try runLoop(backend: backend, session: session, usesColor: console.usesColor)
        return ExitStatus.success
    }

    /// Draws, reads keys, applies them, and refreshes when the app reports a change.
    static func runLoop(backend: any DebugMenuBackend, session: TerminalSession, usesColor: Bool) throws {
        var model = MenuModel(title: backend.title)
        model.update(try backend.entries())
        let changed = ChangeSignal()
        let stopWatching = try backend.watch { changed.raise() }
        defer { stopWatching() }
        while !model.isFinished {
            let size = session.size
            let controller = MenuController(backend: backend, pageSize: max(1, size.rows - 6))
            session.draw(MenuRenderer(columns: size.columns, rows: size.rows, usesColor: usesColor).lines(for: model))
            for key in session.readKeys(timeout: 200) { controller.handle(key, in: &model) }
            if changed.consume() {
                do {
                    model.update(try backend.entries())
                } catch {
                    model.message = "✗ the app went away: \(error)"
                }
            }
        }
    }
}

/// Set by the watch thread, read by the menu loop.
final class ChangeSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    func raise() { flag.store(true, ordering: .releasing) }

    /// Whether a change arrived since the last call.
    func consume() -> Bool { flag.exchange(false, ordering: .acquiring) }
}
