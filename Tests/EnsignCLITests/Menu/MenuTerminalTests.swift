import Ensign
import Foundation
import Testing

/// `ensign menu` in a real terminal: tmux runs it in an 80×24 pane, the test types keys with
/// `send-keys` and reads the screen with `capture-pane`. `scripts/setup` installs tmux.
@Suite("ensign menu in a terminal (tmux)", .serialized)
struct MenuTerminalTests {
    /// One tmux session, killed when released.
    final class Pane {
        let name = "ensign-menu-\(UUID().uuidString.prefix(8))"

        init(command: String) throws {
            #expect(try Self.tmux(["new-session", "-d", "-s", name, "-x", "80", "-y", "24", command]).status == 0)
        }

        deinit { _ = try? Self.tmux(["kill-session", "-t", name]) }

        func send(_ keys: String...) throws {
            _ = try Self.tmux(["send-keys", "-t", name] + keys)
        }

        var screen: String {
            (try? Self.tmux(["capture-pane", "-p", "-t", name]).output) ?? ""
        }

        /// Waits (bounded) until the screen satisfies `condition`; returns the last screen.
        @discardableResult
        func waitForScreen(_ condition: (String) -> Bool) -> String {
            var last = screen
            for _ in 0..<100 where !condition(last) {
                usleep(50_000)
                last = screen
            }
            return last
        }

        /// Runs tmux. Output goes through a file, not a pipe: `new-session` starts the tmux
        /// server, which inherits the descriptors and would keep a pipe open forever.
        static func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: outputPath) }
            let output = try FileHandle(forWritingTo: outputPath)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["tmux"] + arguments
            process.standardOutput = arguments.first == "new-session" ? FileHandle.nullDevice : output
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try output.close()
            return (process.terminationStatus, (try? String(contentsOf: outputPath, encoding: .utf8)) ?? "")
        }
    }

    @Test("Browse, toggle, edit, search, see a change from elsewhere, quit — in 80×24")
    func menuSession() throws {
        #expect(try Pane.tmux(["-V"]).status == 0, "tmux is needed for this test; scripts/setup installs it")
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
