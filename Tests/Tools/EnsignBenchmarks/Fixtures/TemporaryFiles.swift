#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Temporary directories and files for fixtures that must be on disk, with POSIX calls (the
/// benchmarks avoid Foundation so its start-up does not show in the figures).
enum TemporaryFiles {
    /// A new, empty directory under `parent` (default /tmp).
    static func directory(under parent: String = "/tmp") throws -> String {
        var template = Array("\(parent)/ensign-bench-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw BenchmarkFailure("mkdtemp failed") }
        return String(cString: created)
    }

    /// Writes `text` to `path`, creating its directory.
    static func write(_ path: String, _ text: String) throws {
        if let slash = path.lastIndex(of: "/") { mkdir(String(path[..<slash]), 0o755) }
        guard let file = fopen(path, "w") else { throw BenchmarkFailure("cannot write \(path)") }
        defer { fclose(file) }
        var bytes = text
        let written = bytes.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == text.utf8.count else { throw BenchmarkFailure("short write to \(path)") }
    }

    /// The whole text of a small file (a process's output, a `/proc` file); empty when unreadable.
    static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes a directory and everything in it.
    static func remove(_ directory: String) {
        _ = try? BuiltTool.run("/bin/rm", ["-rf", directory])
    }
}

/// The executables built next to the benchmarks, and a way to run them.
enum BuiltTool {
    /// This executable's path.
    static func currentExecutable() throws -> String {
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { throw BenchmarkFailure("cannot find this executable (/proc/self/exe)") }
        return String(decoding: path.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of the executable `name` built next to the benchmarks.
    static func path(_ name: String) -> String {
        let current = (try? currentExecutable()) ?? ""
        guard let slash = current.lastIndex(of: "/") else { return name }
        return String(current[..<slash]) + "/" + name
    }

    /// The first executable `name` in a directory of `PATH`, or nil.
    static func onPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Runs `executable` with `arguments`, output discarded, and returns its exit status.
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        waitForExit(try start(executable, arguments))
    }

    /// Runs `executable` once, as ``run(_:_:)`` does, and returns its wall time in nanoseconds;
    /// an exit status other than 0 is the benchmark's failure (`what` names the process).
    static func wallTime(_ executable: String, _ arguments: [String], what: String) throws -> Double {
        let start = ContinuousClock.now
        let status = try run(executable, arguments)
        guard status == 0 else { throw BenchmarkFailure("\(what) exited with \(status)") }
        return Double((ContinuousClock.now - start).nanoseconds)
    }

    /// Waits for the process `pid` to end and returns its exit status.
    @discardableResult
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }

    /// Sends `signal` to the process `pid` and waits for it to end.
    static func stop(_ pid: pid_t, with signal: Int32) {
        kill(pid, signal)
        waitForExit(pid)
    }

    /// Starts `executable` with `arguments`, its standard output and error going to the file
    /// `output` (discarded when `nil`), and returns its process id.
    static func start(_ executable: String, _ arguments: [String], output: String? = nil) throws -> pid_t {
        var pid = pid_t()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            throw BenchmarkFailure("cannot run \(executable)")
        }
        return pid
    }
}
