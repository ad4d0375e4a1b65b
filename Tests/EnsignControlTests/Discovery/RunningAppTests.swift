import Ensign
import EnsignSupport
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

@Suite("Finding running apps and choosing the target")
struct RunningAppTests {
    @Test("Live sockets are listed; stale ones are removed; other files are ignored")
    func listsAndPrunes() throws {
        let directory = try TemporaryRuntimeDirectory()
        let first = try ServerHarness(appName: "alpha", in: directory)
        let stalePath = directory.path + "/beta.999999.sock"
        _ = systemClose(try UnixSocket.listen(at: stalePath))
        try "x".write(toFile: directory.path + "/notes.txt", atomically: true, encoding: .utf8)
        let apps = try RunningApp.all(in: directory.path)
        #expect(apps == [RunningApp(name: "alpha", pid: getpid(), socketPath: first.server.socketPath)])
        #expect(!FileManager.default.fileExists(atPath: stalePath))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/notes.txt"))
    }

    @Test("Socket names parse into app and pid, dots in the app name included")
    func socketNames() {
        #expect(RunningApp.parseSocketName("demo.42.sock")! == ("demo", 42))
        #expect(RunningApp.parseSocketName("my.app.7.sock")! == ("my.app", 7))
        #expect(RunningApp.parseSocketName("demo.sock") == nil)
        #expect(RunningApp.parseSocketName("demo.x.sock") == nil)
        #expect(RunningApp.parseSocketName(".42.sock") == nil)
    }

    @Test("No running app: the error says where it looked and how to start one")
    func noApp() throws {
        let directory = try TemporaryRuntimeDirectory()
        #expect {
            try ControlClient.connect(to: .automatic, in: directory.path)
        } throws: { error in
            "\(error)" == "no running app with a control socket in \(directory.path); start one with `ensign demo`"
                + " or enable ControlServer in your app"
        }
        #expect(throws: ControlClientError.noRunningApp(directory: directory.path + "/missing")) {
            try ControlClient.connect(to: .automatic, in: directory.path + "/missing")
        }
    }

    @Test("One app is chosen automatically; several need --app, which picks by name")
    func chooseTarget() throws {
        let directory = try TemporaryRuntimeDirectory()
        let alpha = try ServerHarness(appName: "alpha", in: directory)
        // Both must be running until the end: choosing among several apps is the point.
        defer { alpha.server.stop() }
        #expect(try ControlTarget.automatic.socketPath(in: directory.path) == alpha.server.socketPath)
        let beta = try ServerHarness(appName: "beta", in: directory, context: alpha.context)
        #expect {
            try ControlTarget.automatic.socketPath(in: directory.path)
        } throws: { error in
            guard let error = error as? ControlClientError, error.isTargetAmbiguous else { return false }
            return "\(error)".contains("alpha") && "\(error)".contains("beta") && "\(error)".contains("--app")
        }
        #expect(try ControlTarget.app("beta").socketPath(in: directory.path) == beta.server.socketPath)
        #expect {
            try ControlTarget.app("gamma").socketPath(in: directory.path)
        } throws: { error in
            "\(error)".contains("no app named 'gamma'") && "\(error)".contains("alpha")
        }
    }

    @Test("The runtime directory comes from ENSIGN_RUNTIME_DIR, else XDG_RUNTIME_DIR/ensign, else /tmp/ensign-<uid>")
    func defaultDirectory() {
        #expect(ControlRuntimeDirectory.path(ensignRuntimeDirectory: "/a", xdgRuntimeDirectory: "/b", uid: 5) == "/a")
        #expect(
            ControlRuntimeDirectory.path(ensignRuntimeDirectory: nil, xdgRuntimeDirectory: "/b", uid: 5) == "/b/ensign")
        #expect(
            ControlRuntimeDirectory.path(ensignRuntimeDirectory: "", xdgRuntimeDirectory: nil, uid: 5)
                == "/tmp/ensign-5")
    }
}
