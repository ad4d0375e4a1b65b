import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// A state directory is checked before anything is read or written in it, and so is the way
/// to it; the files the library creates there never follow a planted link. (Directories and
/// links of another user are tried in the security suite, Tests/EnsignCLITests/Security,
/// which needs a second user.)
@Suite("State directories and the files created in them")
struct StateDirectoryTests {
    @Test("A state directory other users can write to is refused before anything in it is read or written")
    func openDirectoryRefused() throws {
        let fixture = try PersistenceFixture()
        let state = try fixture.makeStateDirectory(mode: 0o777)
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
        #expect(stat(fixture.stateDirectory, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(stat(fixture.overridesFile, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(fixture.overridesFile + ".lock", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test("Links planted under the temporary and lock names are never followed")
    func plantedLinksNotFollowed() throws {
        let fixture = try PersistenceFixture()
        _ = try fixture.makeStateDirectory(mode: 0o700)
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

    @Test("A state directory named with trailing slashes is checked as the link it is, not as where it leads")
    func trailingSlashesChecked() throws {
        let fixture = try PersistenceFixture()
        let elsewhere = try fixture.makeDirectory("elsewhere", mode: 0o700)
        // An invalid file there: a start that took the link's target for the state directory would set it aside.
        try "flags:\n  list.pageSize: ten\n".write(
            toFile: elsewhere + "/overrides.yaml", atomically: false, encoding: .utf8)
        try fixture.directory.link("state", to: "elsewhere")
        for slashes in ["/", "//"] {
            var configuration = fixture.configuration()
            configuration.overridesFile = fixture.stateDirectory + slashes + "overrides.yaml"
            configuration.preferencesFile = nil
            let refusal = #expect(throws: AppContextLoadError.self) { _ = try AppContext(configuration: configuration) }
            #expect(
                refusal?.diagnostics.first?.message.contains(
                    "refusing to keep state in \(fixture.directory.path)/state: it is a symbolic link") == true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["overrides.yaml"])
    }

    @Test("A state directory below a directory others can write to is refused before it is created")
    func openParentRefused() throws {
        let fixture = try PersistenceFixture()
        let open = try fixture.makeDirectory("open", mode: 0o777)
        var configuration = fixture.configuration()
        configuration.preferencesFile = open + "/app/state/preferences.yaml"
        configuration.overridesFile = nil
        let refusal = #expect(throws: AppContextLoadError.self) { _ = try AppContext(configuration: configuration) }
        #expect(
            refusal?.diagnostics.first?.message.contains(
                "refusing to keep state in \(open)/app/state: other users can write to \(open) (mode 777)") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: open) == [])
    }

    @Test("A sticky shared directory (like /tmp) and this user's own links on the way are trusted")
    func stickyParentAndOwnLinksTrusted() throws {
        let fixture = try PersistenceFixture()
        let shared = try fixture.makeDirectory("shared", mode: 0o1777)
        try fixture.directory.link("alias", to: "shared")
        var configuration = fixture.configuration()
        configuration.overridesFile = fixture.directory.path + "/alias/state/overrides.yaml"
        configuration.preferencesFile = nil
        let context = try AppContext(configuration: configuration)
        try context.setOverride(keyNamed: "list.pageSize", to: 55, persist: true)
        #expect(try fixture.read(shared + "/state/overrides.yaml").contains("list.pageSize: 55"))
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
