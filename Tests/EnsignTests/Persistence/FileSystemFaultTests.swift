import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// Real file-system faults under the persisted files: an immutable file, a directory that
/// cannot be written (root writes anywhere, so `chattr +i` stands in for a read-only mount),
/// and a disk that fills up (a small tmpfs). Each time: the write is an error to the caller,
/// the value stays in force for this run, the file on disk is byte for byte what it was,
/// nothing half-written is left behind, the status says so until a save works, and the next
/// save writes everything.
@Suite("File-system faults under the persisted files", .serialized)
struct FileSystemFaultTests {
    @Test(
        "An immutable overrides file: the write is an error naming it, in force, and the file is untouched",
        .enabled(if: geteuid() == 0, "chattr +i needs root"))
    func immutableFile() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        try context.setOverride(keyNamed: "list.pageSize", to: 30, persist: true)
        let before = try fixture.read(fixture.overridesFile)
        try FileAttributes.change("+i", fixture.overridesFile)
        defer { try? FileAttributes.change("-i", fixture.overridesFile) }

        Self.expectNotPersisted(fixture.overridesFile) {
            try context.setOverride(keyNamed: "list.pageSize", to: 31, persist: true)
        }
        #expect(context.value(forKeyNamed: "list.pageSize") == 31)
        #expect(context.status.diagnostics.contains { $0.message.contains("cannot save \(fixture.overridesFile)") })
        #expect(try fixture.read(fixture.overridesFile) == before)
        #expect(try Self.stateFiles(fixture) == ["overrides.yaml", "overrides.yaml.lock"])

        try FileAttributes.change("-i", fixture.overridesFile)
        try context.setOverride(keyNamed: "list.showPending", to: true, persist: true)
        #expect(!context.status.isDegraded)
        try Self.expectRestart(fixture, reads: ["list.pageSize": 31, "list.showPending": true])
    }

    @Test(
        "A state directory that cannot be written: overrides and preferences are errors, and nothing changes on disk",
        .enabled(if: geteuid() == 0, "chattr +i needs root"))
    func unwritableDirectory() throws {
        let fixture = try PersistenceFixture()
        let state = fixture.stateDirectory
        defer { try? FileAttributes.change("-i", state) }
        try Self.expectFaultContained(
            in: fixture, fault: "an immutable state directory",
            start: { try FileAttributes.change("+i", state) }, end: { try FileAttributes.change("-i", state) })
    }

    @Test(
        "A full disk: the writes are errors, the files keep their last good bytes, and the next save writes all",
        .enabled(if: geteuid() == 0, "mounting a small tmpfs needs root"))
    func fullDisk() throws {
        let fixture = try PersistenceFixture()
        let disk = try SmallDisk(at: fixture.stateDirectory)
        print("full disk: \(disk.kind)")
        defer { disk.remove() }
        try Self.expectFaultContained(
            in: fixture, fault: disk.kind, ignoring: [SmallDisk.fillerName], start: disk.fill, end: disk.free)
    }

    @Test(
        "An I/O error (EIO) in the middle of a save: an error naming the file, the old bytes kept, the next save writes all"
    )
    func inputOutputError() throws {
        let fixture = try PersistenceFixture()
        let state = fixture.stateDirectory
        defer { FileSystemFaults.clear(under: state) }
        try Self.expectFaultContained(
            in: fixture, fault: "EIO injected", start: { FileSystemFaults.inject(EIO, under: state) },
            end: { FileSystemFaults.clear(under: state) })
    }

    /// The promise under every fault that stops saves of both files: while `start`'s fault
    /// lasts, a persisted override and a preference are errors naming their file, in force,
    /// with the status degraded; the files keep their bytes and nothing half-written is left
    /// beside them (`ignoring` names the fault's own files); after `end`, the next saves write
    /// everything, which a restart reads.
    static func expectFaultContained(
        in fixture: PersistenceFixture, fault: String, ignoring: [String] = [], start: () throws -> Void,
        end: () throws -> Void
    ) throws {
        let context = try fixture.context()
        try context.setOverride(keyNamed: "list.pageSize", to: 30, persist: true)
        try context.setPreference(keyNamed: "list.rows", to: 11)
        let before = try contents(fixture)
        try start()

        expectNotPersisted(fixture.overridesFile) {
            try context.setOverride(keyNamed: "list.pageSize", to: 31, persist: true)
        }
        expectNotPersisted(fixture.preferencesFile) { try context.setPreference(keyNamed: "list.rows", to: 12) }
        #expect(context.value(forKeyNamed: "list.pageSize") == 31)
        #expect(context.value(forKeyNamed: "list.rows") == 12)
        #expect(context.status.isDegraded)
        #expect(context.status.diagnostics.contains { $0.message.contains("cannot save \(fixture.overridesFile)") })
        #expect(try contents(fixture) == before, "a half-written file replaced a good one (\(fault))")
        #expect(
            try stateFiles(fixture).filter { !ignoring.contains($0) }
                == ["overrides.yaml", "overrides.yaml.lock", "preferences.yaml", "preferences.yaml.lock"])

        try end()
        try context.setOverride(keyNamed: "list.showPending", to: true, persist: true)
        try context.setPreference(keyNamed: "appearance.darkMode", to: true)
        #expect(!context.status.isDegraded)
        try expectRestart(
            fixture,
            reads: ["list.pageSize": 31, "list.showPending": true, "list.rows": 12, "appearance.darkMode": true])
    }

    // MARK: Helpers

    static func expectNotPersisted(_ path: String, _ write: () throws -> Void) {
        #expect {
            try write()
        } throws: { error in
            guard case .notPersisted(_, let failedPath, _)? = error as? ContextWriteError else { return false }
            return failedPath == path
        }
    }

    /// The names in the state directory, sorted.
    static func stateFiles(_ fixture: PersistenceFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory).sorted()
    }

    /// The two persisted files' bytes (nil where missing).
    static func contents(_ fixture: PersistenceFixture) throws -> [String?] {
        [fixture.overridesFile, fixture.preferencesFile].map { try? fixture.read($0) }
    }

    /// A context started afresh from the files reads `values`.
    static func expectRestart(_ fixture: PersistenceFixture, reads values: [String: JSONValue]) throws {
        let restarted = try fixture.context()
        for (key, value) in values {
            #expect(restarted.value(forKeyNamed: key) == value, "\(key) after a restart")
        }
    }
}

/// `chattr`, for file attributes such as immutable (`+i`).
enum FileAttributes {
    static func change(_ attribute: String, _ path: String) throws {
        let result = try BuiltExecutable.run(executable: URL(fileURLWithPath: "/usr/bin/chattr"), [attribute, path])
        guard result.status == 0 else {
            throw FaultSetupError("chattr \(attribute) \(path) failed: \(result.errors)")
        }
    }
}

/// A 256 KiB tmpfs mounted over a directory, which a filler file fills up; where mounting is
/// refused (a container without the capability), the library's own fault seam makes every
/// write under the directory fail with ENOSPC instead, half the data first, as a full disk does.
final class SmallDisk {
    static let fillerName = "filler"
    let directory: String
    let kind: String
    private let isMounted: Bool

    init(at directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        let mount = try BuiltExecutable.run(
            executable: URL(fileURLWithPath: "/bin/mount"),
            ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", directory])
        isMounted = mount.status == 0
        kind = isMounted ? "a 256 KiB tmpfs" : "ENOSPC injected (mount refused: \(mount.errors))"
    }

    /// Takes every free block.
    func fill() throws {
        guard isMounted else { return FileSystemFaults.inject(ENOSPC, under: directory) }
        let descriptor = open(directory + "/" + Self.fillerName, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw FaultSetupError("cannot create the filler: errno \(errno)") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x2E, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw FaultSetupError("filling the disk stopped with errno \(errno)") }
    }

    /// Frees the blocks the filler took.
    func free() throws {
        guard isMounted else { return FileSystemFaults.clear(under: directory) }
        guard unlink(directory + "/" + Self.fillerName) == 0 else {
            throw FaultSetupError("cannot remove the filler: errno \(errno)")
        }
    }

    func remove() {
        FileSystemFaults.clear(under: directory)
        if isMounted {
            _ = try? BuiltExecutable.run(executable: URL(fileURLWithPath: "/bin/umount"), ["-l", directory])
        }
    }
}

struct FaultSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
