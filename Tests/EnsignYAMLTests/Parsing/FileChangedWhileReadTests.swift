import Foundation
import Testing

@testable import EnsignYAML

/// A file written in place while it is read gives a mix of old and new bytes (or a prefix),
/// which may well parse; the reader refuses it instead, and the watcher's next reload reads
/// the finished file.
@Suite("A file that changes while it is read is refused, never read half-written")
struct FileChangedWhileReadTests {
    let parser = YAMLParser()
    let original = "flags:\n  a: 1\n  b: 2\n  c: 3\n"

    func file() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "ensign-read-\(UInt64.random(in: 0...UInt64.max)).yaml")
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func expectRefused(_ path: String, change: @escaping () -> Void) {
        defer { unlink(path) }
        let error = #expect(throws: YAMLError.self) { try parser.readFile(at: path, afterReading: change) }
        #expect(error?.kind == .unreadable)
        #expect(error?.message.contains("the file changed while it was being read") == true)
        #expect(error?.location.file == path)
    }

    @Test("Truncated while read: refused, not taken for its prefix")
    func truncated() throws {
        let path = try file()
        expectRefused(path) { truncate(path, 12) }
    }

    @Test("Emptied while read: refused")
    func emptied() throws {
        let path = try file()
        expectRefused(path) { truncate(path, 0) }
    }

    @Test("Appended to while read: refused")
    func appended() throws {
        let path = try file()
        expectRefused(path) {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data("  d: 4\n".utf8))
            try? handle.close()
        }
    }

    @Test("Rewritten in place with as many bytes while read: refused by its modification time")
    func rewrittenSameSize() throws {
        let path = try file()
        expectRefused(path) {
            // File times tick with the kernel's clock (a few milliseconds), so the rewrite waits
            // for the next tick; within one tick a same-size rewrite cannot be told apart, which
            // is why deployments replace files by rename.
            usleep(20_000)
            let handle = FileHandle(forWritingAtPath: path)!
            handle.write(Data("flags:\n  a: 9\n  b: 9\n  c: 9\n".utf8))
            try? handle.close()
        }
    }

    @Test("Replaced by rename while read: the old file is read whole")
    func replacedByRename() throws {
        let path = try file()
        defer { unlink(path) }
        let bytes = try parser.readFile(at: path) {
            try? "flags:\n  z: 26\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(String(decoding: bytes, as: UTF8.self) == original)
        #expect(try parser.readFile(at: path) == Array("flags:\n  z: 26\n".utf8))
    }
}
