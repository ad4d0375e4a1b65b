import Ensign
import EnsignControl
import EnsignTestSupport
import Foundation

/// An app running inside the test process: a context built from YAML and a control server
/// in a private runtime directory, for the `ensign` binary to talk to.
final class LiveApp {
    /// The directory this app created, kept alive with it; nil when it joined another's.
    private let ownedDirectory: TemporaryRuntimeDirectory?
    let runtimeDirectory: String
    let context: AppContext
    let server: ControlServer

    init(name: String = "testapp", environment: String = "development", runtimeDirectory: String? = nil) throws {
        if let runtimeDirectory {
            (ownedDirectory, self.runtimeDirectory) = (nil, runtimeDirectory)
        } else {
            let created = try TemporaryRuntimeDirectory()
            (ownedDirectory, self.runtimeDirectory) = (created, created.path)
        }
        context = try BeneficiariesFixture.context(environment: environment, overlaid: true)
        var options = ControlServerOptions(appName: name, runtimeDirectory: self.runtimeDirectory)
        options.log = { _ in }
        server = try ControlServer.start(context: context, options: options)
    }

    deinit { server.stop() }

    /// Runs `ensign` with `arguments` against this app's socket.
    func run(_ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(arguments + ["--socket", server.socketPath])
    }
}
