import EnsignTestTraits
import EnsignYAML
import Foundation
import Testing

@testable import Ensign

@Suite("Preferences written by several processes, and by killed ones")
struct MultiProcessPersistenceTests {
    /// Definitions with 40 int preferences under `a.` and 40 under `b.`.
    static func fixture() throws -> PersistenceFixture {
        let fixture = try PersistenceFixture()
        var text = "preferences:\n"
        for prefix in ["a", "b"] {
            for index in 0..<40 { text += "  \(prefix).k\(index): { type: int, default: -1 }\n" }
        }
        text += "  counter: { type: int, default: 0 }\n"
        try fixture.directory.write("flags/app.yaml", text)
        return fixture
    }

    /// The counter in the preferences file, or `nil` when there is no file yet. Fails the test
    /// when the file exists but does not parse.
    static func counterOnDisk(_ fixture: PersistenceFixture) throws -> Int? {
        guard FileManager.default.fileExists(atPath: fixture.preferencesFile) else { return nil }
        let root = try YAMLParser().documents(contentsOf: fixture.preferencesFile).first
        guard
            case .int(let value)? = root?.entry(forKey: "preferences")?.value.entry(forKey: "counter")?.value
                .resolvedScalar
        else { return nil }
        return value
    }

    @Test("Two processes writing different keys of one file at once lose nothing")
    func concurrentWriters() throws {
        let fixture = try Self.fixture()
        let outputs = [Pipe(), Pipe()]
        let writers = try ["a", "b"].enumerated().map { index, prefix in
            try ProbeProcess.start(
                ["write", fixture.flags, fixture.preferencesFile, prefix, "40"], output: outputs[index])
        }
        for writer in writers { writer.waitUntilExit() }
        #expect(writers.allSatisfy { $0.terminationStatus == 0 })
        let context = try fixture.context()
        for prefix in ["a", "b"] {
            for index in 0..<40 {
                #expect(context.value(forKeyNamed: "\(prefix).k\(index)") == .int(index), "\(prefix).k\(index)")
            }
        }
    }

    @Test(
        "A writer killed with SIGKILL at random points always leaves a parseable file with an acknowledged value",
        .blocksItsThread)
    func killedWriter() throws {
        let fixture = try Self.fixture()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let before = try Self.counterOnDisk(fixture) ?? 0
            let output = Pipe()
            let writer = try ProbeProcess.start(
                ["ack-loop", fixture.flags, fixture.preferencesFile, "counter"], output: output)
            usleep(UInt32.random(in: 20_000...120_000, using: &generator))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // The writer continues from the value on disk; without an acknowledgement this round,
            // the value it started from is the last acknowledged one.
            let acknowledged = printed.split(separator: "\n").compactMap { Int($0.dropFirst(4)) }.last ?? before
            guard let value = try Self.counterOnDisk(fixture) else {
                #expect(acknowledged == 0, "round \(round): no counter on disk after ack \(acknowledged)")
                continue
            }
            // On disk: the last acknowledged value, or the one being written when the kill came.
            #expect(
                value >= acknowledged && value <= acknowledged + 1, "round \(round): \(value) after ack \(acknowledged)"
            )
            #expect(fixture.stateFiles(containing: ".corrupt-").isEmpty)
        }
    }
}
