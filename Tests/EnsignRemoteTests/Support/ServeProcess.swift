import EnsignTestSupport
import Foundation

/// A real `ensign serve` for the remote source's end-to-end tests: started over a flags
/// directory on a loopback port (a free one, or the port of a server that was killed, for a
/// restart), with its own control socket for `ensign set`.
final class ServeProcess {
    let process: Process
    let port: Int
    let socket: String

    /// Starts the server and waits for its banner.
    init(flags: String, port requested: Int = 0, directory: TemporaryDirectory) throws {
        let label = UUID().uuidString.prefix(8)
        socket = directory.path + "/serve-\(label).sock"
        let output = try directory.write("serve-\(label).out", "")
        var lastError: (any Error)?
        for _ in 0..<50 {
            let process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "ensign"),
                [
                    "serve", "--flags", flags, "--listen", "127.0.0.1:\(requested)", "--socket", socket,
                    "--allow-production-writes",
                ], output: output, errors: output)
            var found: Int?
            _ = waitUntil("the serve banner", timeout: .seconds(20)) {
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"OFREP on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                    found = Int(text[range].split(separator: ":").last!)
                    return true
                }
                return !process.isRunning
            }
            if let found {
                self.process = process
                self.port = found
                return
            }
            // The port of a killed server may take a moment to be free again.
            lastError = ServeFailure(output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw lastError!
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Kills the server with SIGKILL: no goodbye to its clients.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }

    /// `ensign set KEY VALUE` against this server.
    func set(_ key: String, _ value: String) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("ensign", ["set", key, value, "--socket", socket])
    }
}

/// `ensign serve` did not start; its output.
struct ServeFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "ensign serve did not start: \(output)" }
}
