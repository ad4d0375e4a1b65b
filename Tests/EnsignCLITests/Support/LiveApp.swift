import Ensign
import EnsignControl
import Foundation

/// An app running inside the test process: a context built from YAML and a control server
/// in a private runtime directory, for the `ensign` binary to talk to.
final class LiveApp {
    static let definitions = """
        version: 1
        namespace: beneficiaries
        flags:
          showPendingList: { type: bool, default: false, description: Show pending beneficiaries. }
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: recent }
        """

    static let developmentOverlay = """
        flags:
          beneficiaries.pageSize: 30
        """

    let runtimeDirectory: String
    let context: AppContext
    let server: ControlServer

    init(name: String = "testapp", environment: String = "development", runtimeDirectory: String? = nil) throws {
        self.runtimeDirectory = try runtimeDirectory ?? Self.makeRuntimeDirectory()
        context = try AppContext(
            definitions: Self.definitions, environment: environment, environmentOverlay: Self.developmentOverlay)
        var options = ControlServerOptions(appName: name, runtimeDirectory: self.runtimeDirectory)
        options.log = { _ in }
        server = try ControlServer.start(context: context, options: options)
    }

    deinit { server.stop() }

    /// Runs `ensign` with `arguments` against this app's socket.
    func run(_ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(arguments + ["--socket", server.socketPath])
    }

    /// A fresh private directory, short enough for socket paths.
    static func makeRuntimeDirectory() throws -> String {
        var template = Array("/tmp/ensign-cli-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
        return String(cString: created)
    }
}
