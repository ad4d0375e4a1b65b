import Ensign
import EnsignTestSupport
import EnsignTestTraits
import EnsignYAML
import Foundation
import Testing

/// `ensign set --persist` answers only once the value is on disk: an app killed with SIGKILL
/// right after the answer has it in its overrides file, every time.
@Suite("Persisted writes survive kill -9 right after the reply", .serialized)
struct PersistAcknowledgementTests {
    /// A demo app in a process of its own, with a private runtime and state directory.
    struct DemoProcess {
        let directory: TemporaryDirectory
        let process: Process
        var socket: String { directory.path + "/demo.sock" }
        var overridesFile: String { directory.path + "/state/overrides.yaml" }

        init() throws {
            directory = try TemporaryDirectory()
            let output = try directory.write("demo.out", "")
            let errors = try directory.write("demo.err", "")
            process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "ensign"),
                [
                    "demo", "--flags", "flags/", "--env", "development", "--state", directory.path + "/state",
                    "--socket", directory.path + "/demo.sock",
                ],
                environment: ["ENSIGN_RUNTIME_DIR": directory.path], output: output, errors: errors)
            let (socket, process) = (socket, process)
            // A demo that exits early ends the wait too; the test's first request then says why.
            _ = waitUntil(
                "the demo to create its socket or exit", timeout: .seconds(60), pollingEvery: .milliseconds(5)
            ) {
                FileManager.default.fileExists(atPath: socket) || !process.isRunning
            }
        }

        func set(_ value: Int) throws -> BuiltExecutable.Result {
            try BuiltExecutable.run(
                "ensign", ["set", "beneficiaries.pageSize", "\(value)", "--persist", "--socket", socket],
                environment: ["ENSIGN_RUNTIME_DIR": directory.path])
        }

        /// The persisted page size on disk, read as the next start would.
        func persistedPageSize() throws -> Int? {
            guard FileManager.default.fileExists(atPath: overridesFile) else { return nil }
            let root = try YAMLParser().documents(contentsOf: overridesFile).first
            guard
                case .int(let value)? = root?.entry(forKey: "flags")?.value
                    .entry(forKey: "beneficiaries.pageSize")?.value.resolvedScalar
            else { return nil }
            return value
        }
    }

    @Test("Every acknowledged value is on disk when the app is killed right after the reply", .blocksItsThread)
    func killedAfterReply() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4 {
            let demo = try DemoProcess()
            try #require(FileManager.default.fileExists(atPath: demo.socket), "the demo did not start")
            let writes = Int.random(in: 1...6, using: &generator)
            var acknowledged: Int?
            for index in 0..<writes {
                let value = 10 + round * 10 + index
                let result = try demo.set(value)
                #expect(result.status == 0, "\(result.errors)")
                if result.status == 0 { acknowledged = value }
            }
            kill(demo.process.processIdentifier, SIGKILL)
            demo.process.waitUntilExit()
            #expect(try demo.persistedPageSize() == acknowledged, "round \(round)")
        }
    }

    @Test("A save that fails is an error from ensign set --persist, exit 1, and the status says so")
    func failedSaveExitsOne() throws {
        let demo = try DemoProcess()
        defer {
            kill(demo.process.processIdentifier, SIGKILL)
            demo.process.waitUntilExit()
        }
        try #require(FileManager.default.fileExists(atPath: demo.socket), "the demo did not start")
        // The state directory's place is taken by a file: nothing can be saved there.
        try? FileManager.default.removeItem(atPath: demo.directory.path + "/state")
        try "in the way".write(toFile: demo.directory.path + "/state", atomically: false, encoding: .utf8)
        let result = try demo.set(42)
        #expect(result.status == 1)
        #expect(result.errors.contains("saving it failed"))
        let status = try BuiltExecutable.run(
            "ensign", ["status", "--socket", demo.socket], environment: ["ENSIGN_RUNTIME_DIR": demo.directory.path])
        #expect(status.output.contains("cannot save") || status.errors.contains("cannot save"), "\(status.output)")
    }
}
