#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// nginx on loopback answering the requests `ensign serve` is measured with, as fast as nginx
/// answers anything: the reference DESIGN.md measures `ensign serve` against ("≥ 0.8× what nginx
/// answers with `return 200` of the same body, same load generator, same run; bulk 304
/// revalidation ≥ 0.9× nginx's `return 304`").
///
/// `POST` to ``singlePath`` is answered `return 200` with the single evaluation's body, `POST`
/// to ``revalidationPath`` `return 304` with the same `ETag` and `Cache-Control` as
/// `ensign serve`'s 304. nginx runs in the foreground of its own temporary prefix, with two
/// worker processes (one per core here), no access log and keep-alive on. The benchmark skips
/// the reference, and says so, where nginx is not installed (`scripts/setup --with-test-tools`
/// installs nginx-light).
///
/// Written with POSIX calls rather than shared with the tests' nginx helper, which uses
/// Foundation: the benchmarks keep Foundation out so that their memory entries measure Ensign.
final class NginxReference {
    /// The loopback port nginx listens on.
    let port: UInt16
    /// Where `return 200` answers.
    let singlePath = "/ofrep/v1/evaluate/flags/bench.flag7"
    /// Where `return 304` answers.
    let revalidationPath = "/ofrep/v1/evaluate/flags"
    private let process: pid_t
    private let directory: String
    private var isStopped = false

    /// nginx's executable, when installed.
    static var executable: String? {
        BuiltTool.onPath("nginx") ?? ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { access($0, X_OK) == 0 }
    }

    /// Starts nginx answering `body` and `entityTag` and waits until it accepts connections.
    init(executable: String, body: [UInt8], entityTag: String) throws {
        directory = try TemporaryFiles.directory()
        // mkdtemp makes it 0700; nginx's workers run as another user (www-data) when it starts as root.
        chmod(directory, 0o755)
        port = try LoopbackPort.free()
        let bodyText = String(decoding: body, as: UTF8.self)
        guard !bodyText.contains("'"), !entityTag.contains("'") else {
            throw BenchmarkFailure("the reference body holds a quote nginx's configuration would need escaped")
        }
        let configuration = """
            daemon off;
            worker_processes 2;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log;
            events { worker_connections 4096; }
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
                    location = \(singlePath) { return 200 '\(bodyText)'; }
                    # An OTLP/HTTP receiver's answer, for the telemetry exporter's throughput.
                    location = /v1/logs { return 200 '{}'; }
                    location = \(revalidationPath) {
                        add_header ETag '\(entityTag)' always;
                        add_header Cache-Control no-cache always;
                        return 304;
                    }
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
        let status = try probe.exchange(LoopbackHTTPClient.post(singlePath, body: "{}"))
        guard status == 200 else {
            stop()
            throw BenchmarkFailure("nginx answered \(status), not 200 (see its error.log)")
        }
    }

    deinit { stop() }

    /// Stops nginx (a fast shutdown) and removes its prefix; calling it again does nothing.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        BuiltTool.stop(process, with: SIGTERM)
        TemporaryFiles.remove(directory)
    }
}
