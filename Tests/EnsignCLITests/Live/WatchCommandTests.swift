import Ensign
import EnsignControl
import EnsignJSON
import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@Suite("ensign watch streams changes until interrupted")
struct WatchCommandTests {
    @Test("watch prints the app's changes and exits 0 on SIGINT")
    func streamsUntilInterrupted() throws {
        let app = try LiveApp()
        let watch = try StreamingProcess(["watch", "beneficiaries.pageSize", "--socket", app.server.socketPath])
        #expect(watch.waitForError(containing: "watching beneficiaries.pageSize"))
        try app.context.setOverride(keyNamed: "beneficiaries.pageSize", to: 77)
        let line = watch.waitForOutputLine(containing: "beneficiaries.pageSize")
        #expect(line?.contains("30 → 77") == true)
        #expect(line?.contains("override by code") == true)
        watch.process.interrupt()
        #expect(watch.waitForExit() == 0)
    }

    @Test("watch --json prints the protocol's events, and exits 1 when the app stops")
    func endsWhenAppStops() throws {
        let app = try LiveApp()
        let watch = try StreamingProcess(["watch", "--json", "--socket", app.server.socketPath])
        #expect(watch.waitForError(containing: "watching every key"))
        try app.context.setOverride(keyNamed: "beneficiaries.showPendingList", to: true)
        let line = try #require(watch.waitForOutputLine(containing: "\"event\""))
        let event = try JSONValue(jsonText: line)
        #expect(event["event"] == "change")
        #expect(event["changes"]?.arrayValue?.first?["new"] == true)
        app.server.stop()
        #expect(watch.waitForExit() == 1)
        // The exit can be seen before the last of standard error is read: wait for the text.
        #expect(watch.waitForError(containing: "the app stopped"))
    }

    @Test(
        "A watch that is never interrupted is killed at the runner's time limit, so it fails its test, not the run",
        .blocksItsThread)
    func runnerTimeLimit() throws {
        let app = try LiveApp()
        let started = ContinuousClock.now
        #expect(throws: BuiltExecutable.TimedOut.self) {
            try BuiltExecutable.run(
                "ensign", ["watch", "--socket", app.server.socketPath], timeout: .milliseconds(500))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}

/// A running `ensign` process whose output is read line by line as it comes.
final class StreamingProcess {
    let process = Process()
    private let output = Pipe()
    private let errorOutput = Pipe()
    private let buffers = LockedState<(output: String, errors: String)>(("", ""))

    init(_ arguments: [String]) throws {
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardOutput = output
        process.standardError = errorOutput
        let buffers = self.buffers
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            buffers.withLock { $0.output += text }
        }
        errorOutput.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            buffers.withLock { $0.errors += text }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        output.fileHandleForReading.readabilityHandler = nil
        errorOutput.fileHandleForReading.readabilityHandler = nil
    }

    var errors: String { buffers.withLock { $0.errors } }

    /// Whether standard error says `text` within `timeout`.
    func waitForError(containing text: String, timeout: Duration = .seconds(20)) -> Bool {
        waitFor("standard error to say \"\(text)\"", timeout: timeout) { $0.errors.contains(text) ? true : nil }
            ?? false
    }

    /// The first complete output line that contains `text`, within `timeout`.
    func waitForOutputLine(containing text: String, timeout: Duration = .seconds(20)) -> String? {
        waitFor("an output line with \"\(text)\"", timeout: timeout) { buffers in
            buffers.output.split(separator: "\n", omittingEmptySubsequences: true).dropLast(
                buffers.output.hasSuffix("\n") ? 0 : 1
            ).first { $0.contains(text) }.map(String.init)
        }
    }

    /// The exit status, waiting at most `timeout`; `nil` if it is still running.
    func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        if process.isRunning, exited.wait(timeout: .now() + .seconds(Int(timeout.components.seconds))) == .timedOut {
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What `match` finds in the output so far, once it finds something (with the shared `waitUntil`).
    private func waitFor<T>(
        _ what: String, timeout: Duration, _ match: ((output: String, errors: String)) -> T?
    ) -> T? {
        var found: T?
        _ = waitUntil(what, timeout: timeout) {
            found = buffers.withLock { match($0) }
            return found != nil
        }
        return found
    }
}
