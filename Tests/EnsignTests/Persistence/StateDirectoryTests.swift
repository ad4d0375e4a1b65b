import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// A state directory is checked before anything is read or written in it, and the files the
/// library creates there never follow a planted link. (Directories of another user are tried
/// in the security suite, which needs a second user.)
@Suite("State directories and the files created in them")
struct StateDirectoryTests {
    @Test("A state directory other users can write to is refused before anything in it is read or written")
    func openDirectoryRefused() throws {
        let fixture = try PersistenceFixture()
        let state = fixture.directory.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(chmod(state, 0o777) == 0)
        // An invalid overrides file that loading would set aside (a write) if it were read.
        try "flags:\n  list.pageSize: ten\n".write(toFile: fixture.overridesFile, atomically: false, encoding: .utf8)
        #expect {
            _ = try fixture.context()
        } throws: { error in
            (error as? AppContextLoadError)?.diagnostics.contains { $0.message.contains("other users can write") }
                == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["overrides.yaml"])
    }

    @Test("A state directory that is a symbolic link is refused")
    func linkedDirectoryRefused() throws {
        let fixture = try PersistenceFixture()
        try FileManager.default.createDirectory(
            atPath: fixture.directory.path + "/elsewhere", withIntermediateDirectories: true)
        try fixture.directory.link("state", to: "elsewhere")
        #expect(throws: AppContextLoadError.self) { _ = try fixture.context() }
    }

    @Test("A missing state directory is created private; the files written there are private too")
    func createdPrivate() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        try context.setOverride(keyNamed: "list.pageSize", to: 55, persist: true)
        var status = stat()
        #expect(stat(fixture.directory.path + "/state", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(stat(fixture.overridesFile, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(fixture.overridesFile + ".lock", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test("Links planted under the temporary and lock names are never followed")
    func plantedLinksNotFollowed() throws {
        let fixture = try PersistenceFixture()
        let state = fixture.directory.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(chmod(state, 0o700) == 0)
        let target = fixture.directory.path + "/victim"
        try "untouched\n".write(toFile: target, atomically: false, encoding: .utf8)
        // The lock file's name is fixed, so a link there must be refused, not followed.
        try fixture.directory.link("state/overrides.yaml.lock", to: "../victim")
        let context = try fixture.context()
        #expect(throws: ContextWriteError.self) {
            try context.setOverride(keyNamed: "list.pageSize", to: 55, persist: true)
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
        unlink(fixture.overridesFile + ".lock")
        // Temporary files get unpredictable names and are created exclusively: a link planted
        // under the old predictable name changes nothing either.
        try fixture.directory.link("state/overrides.yaml.tmp-\(getpid())", to: "../victim")
        try context.setOverride(keyNamed: "list.pageSize", to: 56, persist: true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
        #expect(try fixture.read(fixture.overridesFile).contains("list.pageSize: 56"))
    }

    @Test("The default state directory is in the user's state home, never in /tmp")
    func defaultDirectory() {
        #expect(
            AppContextConfiguration.stateDirectory(forApp: "bank", stateHome: "/home/u/.state", home: "/home/u")
                == "/home/u/.state/ensign/bank")
        #expect(
            AppContextConfiguration.stateDirectory(forApp: "bank", stateHome: nil, home: "/home/u")
                == "/home/u/.local/state/ensign/bank")
        // A relative XDG_STATE_HOME is ignored, as the specification says.
        #expect(
            AppContextConfiguration.stateDirectory(forApp: "bank", stateHome: "state", home: "/home/u")
                == "/home/u/.local/state/ensign/bank")
        #expect(AppContextConfiguration.stateDirectory(forApp: "bank", stateHome: nil, home: nil) == nil)
    }
}
