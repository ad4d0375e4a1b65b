import Foundation

/// A running `ensign serve`, as a process of its own: the tests that need the server's own
/// thread count, its signals, its exit status, or several servers at once start it this way.
public final class ServeProcess {
    /// The server's process.
    public let process: Process
    /// The server's own temporary directory (control socket, output).
    public let directory: TemporaryDirectory
    /// The OFREP port.
    public let port: Int
    /// The port of `/healthz`, `/readyz` and `/metrics` (the OFREP port unless `--management-listen`).
    public let managementPort: Int
    /// The control socket, for `ensign set --socket`.
    public let socket: String
    private let outputPath: String
    private let errorsPath: String
    /// The definitions file ``init(serving:as:arguments:environment:)`` wrote, kept as long as the server.
    private var servedDefinitions: TemporaryDirectory?

    /// The server did not start; the description holds what it printed.
    public struct Failed: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Starts `ensign serve --flags flags --listen 127.0.0.1:port` (a free port when `port` is
    /// 0) with `arguments` after those, and waits until it prints where it listens.
    public init(
        flags: String, port requested: Int = 0, arguments: [String] = [], environment: [String: String] = [:]
    ) throws {
        directory = try TemporaryDirectory()
        socket = directory.path + "/serve.sock"
        outputPath = try directory.write("serve.out", "")
        errorsPath = try directory.write("serve.err", "")
        let command =
            [
                "serve", "--flags", flags, "--listen", "127.0.0.1:\(requested)", "--socket", socket,
                "--allow-production-writes",
            ]
            + arguments
        // The port of a killed server, asked for again, may take a moment to be free.
        var attempts = requested == 0 ? 1 : 50
        while true {
            let process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "ensign"), command, environment: environment,
                output: outputPath, errors: errorsPath)
            if let ports = Self.waitForPorts(of: process, printedIn: outputPath) {
                self.process = process
                (port, managementPort) = ports
                return
            }
            if process.isRunning { process.terminate() }
            attempts -= 1
            guard attempts > 0 else {
                throw Failed(
                    description: "ensign serve did not start: "
                        + ((try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""))
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Starts `ensign serve` on `definitions`, written as `fileName` (its extension says YAML or
    /// JSON) in a directory of the server's own, as ``init(flags:port:arguments:environment:)`` does.
    public convenience init(
        serving definitions: String, as fileName: String = "flags.yaml", arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws {
        let flags = try TemporaryDirectory()
        try self.init(flags: try flags.write(fileName, definitions), arguments: arguments, environment: environment)
        servedDefinitions = flags
    }

    /// The OFREP and management ports once `process` has printed them to `outputPath`; `nil`
    /// when it exits first or prints nothing within a minute.
    private static func waitForPorts(of process: Process, printedIn outputPath: String) -> (Int, Int)? {
        var ports: (Int, Int)?
        _ = waitUntil("ensign serve to print its addresses", timeout: .seconds(60)) {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let port = Self.port(after: #"OFREP on https?://127\.0\.0\.1:"#, in: text),
                let management = Self.port(after: #"health and metrics: https?://127\.0\.0\.1:"#, in: text)
            {
                ports = (port, management)
            }
            return ports != nil || !process.isRunning
        }
        return ports
    }

    deinit {
        if process.isRunning { process.terminate() }
        BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(15))
    }

    /// What the server printed so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What the server printed on standard error so far.
    public var errors: String { (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "" }

    /// The server's threads now, from `/proc`.
    public var threadCount: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// The server's resident memory now, in bytes, from `/proc`.
    public var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kilobytes = line.flatMap {
            Int($0.dropFirst("VmRSS:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return kilobytes.map { $0 * 1024 }
    }

    /// The OFREP base URL, for a remote source.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `ensign set KEY VALUE` against this server's control socket.
    public func set(_ key: String, _ value: String) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("ensign", ["set", key, value, "--socket", socket])
    }

    /// Kills the server with SIGKILL, no goodbye to its clients, and waits for it to end;
    /// does nothing once it has ended.
    public func kill() {
        guard process.isRunning else { return }
        _ = stop(signal: SIGKILL)
    }

    /// Sends `signal` and waits for the exit status (nil when it did not exit in `timeout`).
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(60)) -> Int32? {
        Foundation.kill(process.processIdentifier, signal)
        guard BuiltExecutable.waitForExit(of: process, timeout: timeout) else { return nil }
        return process.terminationStatus
    }

    private static func port(after pattern: String, in text: String) -> Int? {
        guard let range = text.range(of: pattern + "[0-9]+", options: .regularExpression) else { return nil }
        let digits = text[range].reversed().prefix { $0.isNumber }.reversed()
        return Int(String(digits))
    }
}
