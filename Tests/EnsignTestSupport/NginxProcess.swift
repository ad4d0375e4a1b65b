import Foundation

/// Debian's nginx on loopback, in the foreground of a temporary prefix of its own: the load
/// balancer in front of `ensign serve` replicas in the tests, and the reference the benchmarks
/// measure `ensign serve` against. `scripts/setup --with-test-tools` installs it (nginx-light).
public final class NginxProcess {
    /// The loopback port nginx listens on.
    public let port: Int
    /// The prefix: configuration, logs, temporary files.
    public let directory: TemporaryDirectory
    private let process: Process
    private var isStopped = false

    /// nginx is missing or did not start.
    public struct Failed: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// nginx's executable, when installed.
    public static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates =
            path.split(separator: ":").map { "\($0)/nginx" } + ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What to do when nginx is missing: the tests that need it fail (not skip) without it.
    public static let missingMessage =
        "nginx is not installed; run scripts/setup --with-test-tools (it installs Debian's nginx-light)"

    /// Starts nginx with `workers` worker processes and, inside its `http` block, the
    /// directives `http(port)` returns for the port it is given (a `server` listening on
    /// `127.0.0.1:port`, upstreams, …); waits until it accepts connections.
    public init(workers: Int = 2, http: (_ port: Int) -> String) throws {
        guard let executable = Self.executable else { throw Failed(description: Self.missingMessage) }
        directory = try TemporaryDirectory()
        // nginx's workers run as another user when it starts as root: they must reach the prefix.
        chmod(directory.path, 0o755)
        port = try Loopback.freePort()
        let prefix = directory.path
        let configuration = """
            daemon off;
            worker_processes \(workers);
            worker_rlimit_nofile 65536;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log;
            events { worker_connections 16384; }
            http {
                access_log off;
                keepalive_requests 1000000;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
            \(http(port))
            }

            """
        let configurationPath = try directory.write("nginx.conf", configuration)
        let output = try directory.write("nginx.out", "")
        process = try BuiltExecutable.start(
            executable: URL(fileURLWithPath: executable),
            ["-p", prefix, "-e", prefix + "/error.log", "-c", configurationPath], output: output, errors: output)
        let port = port
        let process = process
        let listening = waitUntil("nginx to listen on 127.0.0.1:\(port)", timeout: .seconds(30)) {
            Loopback.accepts(port: port) || !process.isRunning
        }
        guard listening, process.isRunning else {
            let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
            stop()
            throw Failed(description: "nginx did not start: \(log)")
        }
    }

    deinit { stop() }

    /// nginx's error log so far.
    public var errorLog: String {
        (try? String(contentsOfFile: directory.path + "/error.log", encoding: .utf8)) ?? ""
    }

    /// Stops nginx (a fast shutdown) and waits for it; calling it again does nothing.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        if process.isRunning { process.terminate() }
        BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(10))
    }
}
