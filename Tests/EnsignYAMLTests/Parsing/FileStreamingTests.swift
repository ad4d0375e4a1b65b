import Foundation
import Testing

@testable import EnsignYAML

/// `streamFile(at:)` reads what `readFile(at:)` reads, a chunk at a time, and refuses what it
/// refuses, with the same errors.
@Suite("Streaming a file in chunks")
struct FileStreamingTests {
    let parser = YAMLParser()

    func temporaryPath(_ name: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "ensign-stream-\(UInt64.random(in: 0...UInt64.max))-\(name)")
    }

    @Test("The chunks, joined, are the file's bytes, whatever the chunk size", arguments: [1, 7, 4096, 65536])
    func sameBytes(chunkSize: Int) throws {
        let path = temporaryPath("data")
        defer { unlink(path) }
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var streamed: [UInt8] = []
        var largest = 0
        try parser.streamFile(at: path, chunkSize: chunkSize) { chunk in
            largest = max(largest, chunk.count)
            streamed += chunk
        }
        #expect(streamed == (try parser.readFile(at: path)))
        #expect(largest <= chunkSize)
    }

    @Test("A directory, a FIFO, a missing file and an oversized one are refused as readFile refuses them")
    func sameRefusals() throws {
        let directory = temporaryPath("directory")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { rmdir(directory) }
        let fifo = temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let large = temporaryPath("large")
        try Data(count: 2_000).write(to: URL(fileURLWithPath: large))
        defer { unlink(large) }
        var limits = YAMLLimits()
        limits.maximumFileSize = 1_000
        let limited = YAMLParser(limits: limits)
        for (path, reader) in [
            (directory, parser), (fifo, parser), (temporaryPath("missing"), parser), (large, limited),
        ] {
            var chunks = 0
            let streamed = #expect(throws: YAMLError.self) { try reader.streamFile(at: path) { _ in chunks += 1 } }
            let read = #expect(throws: YAMLError.self) { try reader.readFile(at: path) }
            #expect(streamed?.description == read?.description)
            #expect(chunks == 0, "nothing is handed out for \(path)")
        }
        // Each refusal closes the descriptor it opened: 3,000 of them would leave 3,000 open
        // (or as many as the limit allows); other tests open a few meanwhile.
        let before = Self.openDescriptors()
        for _ in 0..<500 {
            for (path, reader) in [(directory, parser), (fifo, parser), (large, limited)] {
                _ = try? reader.readFile(at: path)
                try? reader.streamFile(at: path) { _ in }
            }
        }
        #expect(Self.openDescriptors() < before + 200, "refused files are closed")
    }

    /// The process's open descriptors, from /proc.
    static func openDescriptors() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }
}
