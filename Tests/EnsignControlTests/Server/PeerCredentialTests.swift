import Ensign
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

@Suite("Only the same user (or root) is served")
struct PeerCredentialTests {
    static let otherUID: UInt32 = 65534

    /// Needs root: only root can start a process that drops to another uid. As any other
    /// user the test cannot create a peer of a different uid, so it does not run.
    @Test(
        "A client of another uid is refused with FORBIDDEN and the refusal is logged",
        .enabled(if: geteuid() == 0, "needs root to run a client as another uid"))
    func otherUserRefused() throws {
        let harness = try ServerHarness()
        // Open the directory and socket so that the peer check, not the file mode, decides.
        chmod(harness.directory.path, 0o711)
        chmod(harness.server.socketPath, 0o666)
        let (status, output) = try ControlProbe.run(["connect-as", "\(Self.otherUID)", harness.server.socketPath])
        #expect(status == 0)
        #expect(output.contains("\"FORBIDDEN\""))
        #expect(
            harness.logged.values.contains { $0.contains("refused a connection from uid \(Self.otherUID)") })
        #expect(try harness.client().status().server.app == "testapp")
    }

    @Test(
        "With the default modes, another uid cannot even connect: the 0600 socket in a 0700 directory stops it",
        .enabled(if: geteuid() == 0, "needs root to run a client as another uid"))
    func fileModesStopOtherUsers() throws {
        let harness = try ServerHarness()
        let (status, output) = try ControlProbe.run(["connect-as", "\(Self.otherUID)", harness.server.socketPath])
        #expect(status == 3)
        #expect(output.contains("errno \(EACCES)"))
    }

    @Test("The same user is served: the peer's credentials are read from the socket")
    func sameUserServed() throws {
        let harness = try ServerHarness()
        let raw = try harness.raw()
        #expect(try raw.request(#"{"id":1,"op":"hello"}"#)?["ok"] == true)
        #expect(UnixSocket.peerCredentials(of: raw.channel.descriptor)?.uid == geteuid())
    }
}
