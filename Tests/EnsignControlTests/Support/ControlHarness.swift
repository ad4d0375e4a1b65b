import Ensign
import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignControl

/// The banking app the control tests use (`BeneficiariesFixture`), as a context.
enum ControlFixtures {
    static let definitions = BeneficiariesFixture.definitions

    /// A context over the fixtures for `environment` (with the development overlay).
    static func context(environment: String = "development") throws -> AppContext {
        try AppContext(
            definitions: BeneficiariesFixture.definitions, BeneficiariesFixture.preferences,
            environment: environment, environmentOverlay: BeneficiariesFixture.developmentOverlay)
    }
}

/// A context and a control server on it in a private runtime directory, with the server's
/// log captured.
final class ServerHarness {
    let directory: TemporaryRuntimeDirectory
    let context: AppContext
    let server: ControlServer
    /// The server's log lines, in order.
    let logged = Recorder<String>()

    /// Starts a server named `appName` in `directory` (a new private one when `nil`) on
    /// `context` (the fixtures' context for `environment` when `nil`).
    init(
        appName: String = "testapp", in directory: TemporaryRuntimeDirectory? = nil, context: AppContext? = nil,
        environment: String = "development", configure: (inout ControlServerOptions) -> Void = { _ in }
    ) throws {
        self.directory = try directory ?? TemporaryRuntimeDirectory()
        self.context = try context ?? ControlFixtures.context(environment: environment)
        var options = ControlServerOptions(appName: appName, runtimeDirectory: self.directory.path)
        let logged = self.logged
        options.log = { message in logged.record(message) }
        configure(&options)
        server = try ControlServer.start(context: self.context, options: options)
    }

    deinit { server.stop() }

    func client() throws -> ControlClient {
        try ControlClient.connect(to: .socket(server.socketPath), timeout: .seconds(10))
    }

    func raw() throws -> RawConnection {
        try RawConnection(path: server.socketPath)
    }
}

/// A connection that sends raw bytes, for robustness tests, and reads the server's lines.
final class RawConnection {
    let channel: LineChannel

    init(path: String) throws {
        channel = try LineChannel.connect(to: path)
    }

    func send(_ bytes: [UInt8]) throws {
        try UnixSocket.sendAll(channel.descriptor, bytes)
    }

    func send(line: String) throws {
        try send(Array((line + "\n").utf8))
    }

    /// The next line as JSON; `nil` when none comes in time.
    func receive(timeout: Duration = .seconds(10)) throws -> JSONValue? {
        guard let line = try channel.receiveLine(timeout: timeout) else { return nil }
        return try JSONValue(jsonBytes: line)
    }

    /// Sends a request line and returns the reply.
    func request(_ line: String) throws -> JSONValue? {
        try send(line: line)
        return try receive()
    }

    /// Whether the server closes the connection within `timeout` (lines before the end are skipped).
    func isClosedByServer(timeout: Duration = .seconds(10)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            do {
                _ = try channel.receiveLine(timeout: deadline - clock.now)
            } catch {
                return true
            }
        }
        return false
    }

    /// Closes without a goodbye, as a crashed client would.
    func close() { channel.close() }
}

/// Expects `call` to be refused by the server with `code`, and with a message that contains
/// `message` when one is given.
func expectRefusal<Result>(
    _ code: ControlErrorCode, containing message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ call: () throws -> Result
) {
    #expect(sourceLocation: sourceLocation) {
        try call()
    } throws: { error in
        guard case .refused(let refusal) = error as? ControlClientError else { return false }
        return refusal.code == code && message.map { refusal.message.contains($0) } ?? true
    }
}
