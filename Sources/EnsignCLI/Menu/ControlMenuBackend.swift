import Ensign
import EnsignControl
import EnsignDebugMenu

/// The menu's view of a running app, through its control socket.
struct ControlMenuBackend: DebugMenuBackend {
    let client: ControlClient

    var title: String { "\(client.server.app) (pid \(client.server.pid), \(client.server.environment))" }

    func entries() throws -> [DebugMenuEntry] {
        try client.list().map { report in
            DebugMenuEntry(
                key: report.key, type: report.type ?? "?", value: report.value, reason: report.reason,
                isOverridden: report.isOverridden, summary: report.description ?? "")
        }
    }

    func toggle(_ key: String) throws {
        _ = try client.toggle(key)
    }

    func set(_ key: String, to value: JSONValue, persist: Bool) throws {
        _ = try client.set(key, to: value, persist: persist)
    }

    func reset(_ key: String) throws {
        _ = try client.reset(key)
    }

    func watch(_ onChange: @escaping @Sendable () -> Void) throws -> @Sendable () -> Void {
        let watch = try client.watch()
        let task = Task.detached {
            for try await _ in watch.events() { onChange() }
        }
        return {
            task.cancel()
            watch.close()
        }
    }
}
