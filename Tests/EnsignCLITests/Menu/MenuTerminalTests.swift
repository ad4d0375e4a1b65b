import Ensign
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// `ensign menu` in a real terminal: tmux runs it in an 80×24 pane, the test types keys with
/// `send-keys` and reads the screen with `capture-pane`. `scripts/setup` installs tmux.
@Suite("ensign menu in a terminal (tmux)", .serialized)
struct MenuTerminalTests {
    /// A private tmux server on its own socket, run in the foreground (`-D`) as this test's
    /// child, and stopped when released.
    ///
    /// Why not let `new-session` start the usual daemon: the daemon is forked by the client and
    /// inherits the descriptor through which Foundation learns that the client exited, so the
    /// client is never reaped and `waitUntilExit()` never returns — the whole test run hangs on
    /// any machine where no tmux server was running yet.
    final class Server {
        let directory: TemporaryDirectory
        let socketPath: String
        private let process = Process()

        init() throws {
            directory = try TemporaryDirectory()
            socketPath = directory.path + "/tmux.sock"
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["tmux", "-S", socketPath, "-D"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = waitUntil("tmux to create its socket", timeout: .seconds(4), pollingEvery: .milliseconds(20)) {
                FileManager.default.fileExists(atPath: socketPath)
            }
            // Without a server on the socket, `new-session` would start the daemon after all.
            guard process.isRunning, FileManager.default.fileExists(atPath: socketPath) else {
                throw TmuxUnavailable()
            }
        }

        deinit {
            _ = try? run(["kill-server"])
            BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(2))
        }

        /// Runs a tmux client command against this server (bounded, output through a file).
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let result = try BuiltExecutable.run(
                executable: URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "-S", socketPath] + arguments,
                timeout: .seconds(10))
            return (result.status, result.output)
        }
    }

    /// The tmux server did not start: tmux is missing or older than 3.2 (no `-D`).
    struct TmuxUnavailable: Error, CustomStringConvertible {
        var description: String { "tmux 3.2 or later is needed for this test; scripts/setup installs it" }
    }

    /// One tmux session on a private server, killed when released.
    final class Pane {
        let server: Server
        let name = "ensign-menu"

        init(command: String) throws {
            server = try Server()
            #expect(try server.run(["new-session", "-d", "-s", name, "-x", "80", "-y", "24", command]).status == 0)
        }

        func send(_ keys: String...) throws {
            _ = try server.run(["send-keys", "-t", name] + keys)
        }

        var screen: String {
            (try? server.run(["capture-pane", "-p", "-t", name]).output) ?? ""
        }

        /// Waits (bounded) until the screen satisfies `condition`; returns the last screen, which
        /// the test's expectations then read.
        @discardableResult
        func waitForScreen(_ condition: (String) -> Bool) -> String {
            var last = screen
            // Ten seconds: a hundred captures fifty milliseconds apart, the wait this replaced,
            // took at least five and more on a loaded machine.
            _ = waitUntil("the menu's screen to change as expected", pollingEvery: .milliseconds(50)) {
                last = screen
                return condition(last)
            }
            return last
        }
    }

    @Test("Browse, toggle, edit, search, see a change from elsewhere, quit — in 80×24", .blocksItsThread)
    func menuSession() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        #expect(
            path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") },
            "tmux is needed for this test; scripts/setup installs it")
        let app = try LiveApp()
        let command = "NO_COLOR=1 \(CLIRunner.executable.path) menu --socket \(app.server.socketPath)"
        let pane = try Pane(command: command)
        var screen = pane.waitForScreen { $0.contains("showPendingList") }
        #expect(screen.contains("ensign menu — testapp"))
        #expect(screen.contains(" beneficiaries"))
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 80 })

        // Rows sort by key: pageSize, showPendingList, sortOrder. Move down once and toggle.
        try pane.send("j")
        try pane.send("Space")
        screen = pane.waitForScreen { $0.contains("toggled beneficiaries.showPendingList") }
        #expect(app.context.value(forKeyNamed: "beneficiaries.showPendingList") == true)
        #expect(screen.contains("● override"))

        // Edit the page size: e, clear "30", type 45, enter.
        try pane.send("k")
        try pane.send("e")
        try pane.send("BSpace", "BSpace", "4", "5", "Enter")
        pane.waitForScreen { $0.contains("beneficiaries.pageSize = 45") }
        #expect(app.context.value(forKeyNamed: "beneficiaries.pageSize") == 45)

        // A change made elsewhere shows up live.
        try app.context.setOverride(keyNamed: "beneficiaries.sortOrder", to: "name", actor: "test")
        screen = pane.waitForScreen { $0.contains("\"name\"") }
        #expect(screen.contains("\"name\""))

        // Search narrows the list; q quits and the terminal is restored.
        try pane.send("/", "s", "o", "r", "t", "Enter")
        screen = pane.waitForScreen { $0.contains("match(es) for 'sort'") }
        #expect(!screen.contains("showPendingList"))
        try pane.send("q")
        screen = pane.waitForScreen { !$0.contains("ensign menu —") }
        #expect(!screen.contains("ensign menu —"))
    }
}
