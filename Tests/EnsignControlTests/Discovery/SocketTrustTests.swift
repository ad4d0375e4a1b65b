import Ensign
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

/// A client talks only to sockets no other user could have put in its way, and a server
/// listens only where no other user can replace its socket.
@Suite("Control sockets: where they may be, and whom a client trusts")
struct SocketTrustTests {
    @Test("A runtime directory named with a trailing slash is checked as the link it is")
    func trailingSlash() throws {
        let directory = try TemporaryRuntimeDirectory()
        let real = directory.path + "/real"
        let link = directory.path + "/link"
        #expect(mkdir(real, 0o700) == 0)
        #expect(symlink(real, link) == 0)
        #expect(throws: RuntimeDirectoryError.self) { try ControlRuntimeDirectory.check(link + "/") }
        #expect(throws: RuntimeDirectoryError.self) { try ControlRuntimeDirectory.prepare(link + "//") }
        let chosen = ControlRuntimeDirectory.path(ensignRuntimeDirectory: link + "/", xdgRuntimeDirectory: nil, uid: 0)
        #expect(chosen == link)
    }

    @Test("A runtime directory below a directory others can write to is refused before anything is created")
    func openParentRefused() throws {
        let directory = try TemporaryRuntimeDirectory()
        let open = directory.path + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        let refusal = #expect(throws: RuntimeDirectoryError.self) { try ControlRuntimeDirectory.prepare(open + "/run") }
        #expect(refusal?.problem.hasPrefix("other users can write to \(open) (mode 777)") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: open) == [])
        // An explicit socket path there is refused as well, by the server and by a client.
        #expect(mkdir(open + "/private", 0o700) == 0)
        #expect(throws: ControlServerError.self) {
            try ControlServer.start(
                context: try ControlFixtures.context(),
                options: ControlServerOptions(appName: "x", socketPath: open + "/private/x.sock"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: open + "/private") == [])
    }

    @Test("This user's own links and a sticky shared directory on the way to the runtime directory are trusted")
    func ownLinksTrusted() throws {
        let directory = try TemporaryRuntimeDirectory()
        let shared = directory.path + "/shared"
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
        #expect(symlink(shared, directory.path + "/alias") == 0)
        try ControlRuntimeDirectory.prepare(directory.path + "/alias/run")
        var info = stat()
        #expect(lstat(shared + "/run", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test("A server refuses an explicit socket path in a directory others can write to")
    func serverRefusesOpenDirectory() throws {
        let directory = try TemporaryRuntimeDirectory()
        chmod(directory.path, 0o777)
        #expect(throws: ControlServerError.self) {
            try ControlServer.start(
                context: try ControlFixtures.context(),
                options: ControlServerOptions(appName: "x", socketPath: directory.path + "/x.sock"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/x.sock"), "nothing was created")
    }

    @Test("A client refuses a socket in a directory others can write to")
    func clientRefusesOpenDirectory() throws {
        let harness = try ServerHarness()
        chmod(harness.directory.path, 0o777)
        defer { chmod(harness.directory.path, 0o700) }
        #expect(throws: ControlClientError.self) { try harness.client() }
        chmod(harness.directory.path, 0o700)
        #expect(try harness.client().status().server.app == "testapp")
    }

    @Test("A client refuses a link to a socket, and a path that is not a socket")
    func clientRefusesLinks() throws {
        let harness = try ServerHarness()
        let link = harness.directory.path + "/link.sock"
        #expect(symlink(harness.server.socketPath, link) == 0)
        let refusal = #expect(throws: ControlClientError.self) {
            try ControlClient.connect(to: .socket(link), timeout: .seconds(5))
        }
        #expect(refusal?.description.contains("symbolic link") == true)
        let file = harness.directory.path + "/plain.sock"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(throws: ControlClientError.self) { try ControlClient.connect(to: .socket(file), timeout: .seconds(5)) }
    }

    @Test(
        "A client refuses a server that does not run as the socket's owner",
        .enabled(if: geteuid() == 0, "needs root to give the socket to another uid"))
    func clientChecksServerCredentials() throws {
        let harness = try ServerHarness()
        // The socket now claims to be nobody's while root's server answers on it.
        #expect(chown(harness.server.socketPath, 65534, 65534) == 0)
        let refusal = #expect(throws: ControlClientError.self) { try harness.client() }
        #expect(refusal?.description.contains("runs as uid 0, not as the socket's owner uid 65534") == true)
    }
}
