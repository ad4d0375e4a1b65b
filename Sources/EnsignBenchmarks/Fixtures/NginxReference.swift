#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// nginx serving one static file on loopback: the reference DESIGN.md measures `ensign serve`
/// against ("what nginx serves for the same response body from a static file on the same
/// machine, same load generator, same run").
///
/// nginx runs in the foreground of its own temporary prefix, with two worker processes (one per
/// core here), no access log and keep-alive on, so that it is measured at its fastest. The
/// benchmark skips the reference, and says so, where nginx is not installed (`apt-get install
/// nginx-light`; `scripts/setup --with-test-tools` installs it).
final class NginxReference {
    /// The loopback port nginx listens on.
    let port: UInt16
    /// The path of the static file, for `GET`.
    let path = "/evaluation.json"
    private let process: pid_t
    private let directory: String

    /// nginx's executable, when installed.
    static var executable: String? {
        BuiltTool.onPath("nginx") ?? ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { access($0, X_OK) == 0 }
    }

    /// Starts nginx serving `body` and waits until it accepts connections.
    init(executable: String, body: [UInt8]) throws {
        directory = try TemporaryFiles.directory()
        // mkdtemp makes it 0700; nginx's workers run as another user (www-data) when it starts as root.
        chmod(directory, 0o755)
        port = try Self.freeLoopbackPort()
        try TemporaryFiles.write(directory + "/www" + path, String(decoding: body, as: UTF8.self))
        let configuration = """
            daemon off;
            worker_processes 2;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                keepalive_requests 1000000;
                default_type application/json;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(directory)/www;
                }
            }

            """
        try TemporaryFiles.write(directory + "/nginx.conf", configuration)
        process = try BuiltTool.start(
            executable, ["-p", directory, "-e", directory + "/error.log", "-c", directory + "/nginx.conf"])
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? LoopbackHTTPClient(port: port)) == nil {
            guard ContinuousClock.now < deadline else {
                stop()
                throw BenchmarkFailure("nginx did not listen on 127.0.0.1:\(port) within 10 s (see its error.log)")
            }
            usleep(20_000)
        }
        let probe = try LoopbackHTTPClient(port: port)
        let status = try probe.exchange(LoopbackHTTPClient.get(path))
        guard status == 200 else {
            stop()
            throw BenchmarkFailure("nginx answered \(status) for its static file, not 200 (see its error.log)")
        }
    }

    deinit { stop() }

    /// Stops nginx (a fast shutdown) and removes its prefix; calling it again does nothing.
    func stop() {
        guard kill(process, 0) == 0 else { return }
        kill(process, SIGTERM)
        var status: Int32 = 0
        waitpid(process, &status, 0)
        TemporaryFiles.remove(directory)
    }

    /// A port the system has just handed out on loopback (bound, read back and closed): nginx
    /// takes it a moment later, as nothing else here asks for ports.
    private static func freeLoopbackPort() throws -> UInt16 {
        #if canImport(Glibc)
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let probe = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard probe >= 0 else { throw BenchmarkFailure("socket() failed") }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0
            }
        }
        guard found else { throw BenchmarkFailure("cannot find a free loopback port") }
        return UInt16(bigEndian: address.sin_port)
    }
}
