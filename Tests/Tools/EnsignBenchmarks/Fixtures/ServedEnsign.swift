#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ensign serve` as a process of its own, as users run it: the serve benchmarks measure it
/// from outside (wrk, a crowd of streams), and read its threads and memory from `/proc`.
///
/// The executable is the release `ensign` built next to the benchmarks, or the one
/// `$ENSIGN_BENCH_SERVE` names, so that another build (the last landed one) can be measured by
/// the same benchmark, in the same run conditions.
final class ServedEnsign {
    let pid: pid_t
    let port: UInt16
    /// The control socket, for changes made through a ControlClient.
    let socketPath: String
    private let directory: String
    private var isStopped = false

    /// The executable measured.
    static var executable: String {
        getenv("ENSIGN_BENCH_SERVE").map { String(cString: $0) } ?? BuiltTool.path("ensign")
    }

    /// Starts `ensign serve --flags flagsFile` on a free loopback port, with `arguments` after,
    /// and waits until it says where it listens.
    init(flagsFile: String, arguments: [String] = []) throws {
        directory = try TemporaryFiles.directory()
        socketPath = directory + "/serve.sock"
        let output = directory + "/serve.out"
        pid = try BuiltTool.start(
            Self.executable,
            [
                "serve", "--flags", flagsFile, "--listen", "127.0.0.1:0", "--socket", socketPath,
                "--allow-production-writes",
            ]
                + arguments, output: output)
        let deadline = ContinuousClock.now + .seconds(60)
        var found: UInt16?
        while found == nil {
            let text = TemporaryFiles.read(output)
            if let range = text.firstRange(of: "OFREP on http://127.0.0.1:") {
                found = UInt16(text[range.upperBound...].prefix { $0.isNumber })
            }
            var status: Int32 = 0
            guard found == nil else { break }
            if waitpid(pid, &status, WNOHANG) == pid || ContinuousClock.now > deadline {
                TemporaryFiles.remove(directory)
                throw BenchmarkFailure("ensign serve did not start (\(Self.executable)): \(text)")
            }
            usleep(10_000)
        }
        port = found!
    }

    deinit { stop() }

    /// The server's threads now.
    var threads: Int? { statusField("Threads:") }

    /// The server's resident memory now, in bytes.
    var residentBytes: Int? { statusField("VmRSS:").map { $0 * 1024 } }

    private func statusField(_ name: String) -> Int? {
        let status = TemporaryFiles.read("/proc/\(pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }

    /// Stops the server (SIGTERM, which drains) and waits for it; calling it again does nothing.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        BuiltTool.stop(pid, with: SIGTERM)
        TemporaryFiles.remove(directory)
    }
}
