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
    private var isStopped = false

    /// nginx's executable, when installed.
    static var executable: String? {
        BuiltTool.onPath("nginx") ?? ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { access($0, X_OK) == 0 }
    }

    /// Starts nginx serving `body` and waits until it accepts connections.
    init(executable: String, body: [UInt8]) throws {
        directory = try TemporaryFiles.directory()
        // mkdtemp makes it 0700; nginx's workers run as another user (www-data) when it starts as root.
        chmod(directory, 0o755)
        port = try LoopbackPort.free()
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
        guard !isStopped else { return }
        isStopped = true
        kill(process, SIGTERM)
        var status: Int32 = 0
        waitpid(process, &status, 0)
        TemporaryFiles.remove(directory)
    }
}
