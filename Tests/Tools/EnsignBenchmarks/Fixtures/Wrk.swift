#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// wrk, the HTTP load generator both `ensign serve` and nginx are measured with, in the same
/// run: two threads (one per core here) holding a given number of keep-alive connections.
enum Wrk {
    /// wrk's executable, when installed (`scripts/setup --with-bench-tools` installs it).
    static var executable: String? { BuiltTool.onPath("wrk") }

    /// The load of one measurement: what every request sends.
    struct Load {
        var method = "POST"
        var path: String
        var body: String
        var headers: [(String, String)] = [("Content-Type", "application/json")]
    }

    /// Nanoseconds per request (the inverse of the rate) that wrk measures for `load` on
    /// `127.0.0.1:port` with `connections` connections for `duration`.
    ///
    /// - Throws: when wrk fails, reports socket errors, or a response is neither 2xx nor 3xx.
    static func nanosecondsPerRequest(port: UInt16, load: Load, connections: Int, duration: Duration) throws -> Double {
        guard let executable else { throw BenchmarkFailure("wrk is not installed (apt-get install wrk)") }
        let directory = try TemporaryFiles.directory()
        defer { TemporaryFiles.remove(directory) }
        var script = "wrk.method = \(luaString(load.method))\nwrk.body = \(luaString(load.body))\n"
        for (name, value) in load.headers { script += "wrk.headers[\(luaString(name))] = \(luaString(value))\n" }
        try TemporaryFiles.write(directory + "/load.lua", script)
        let output = directory + "/wrk.out"
        let pid = try BuiltTool.start(
            executable,
            [
                "-t2", "-c\(connections)", "-d\(max(1, duration.components.seconds))s", "-s", directory + "/load.lua",
                "http://127.0.0.1:\(port)\(load.path)",
            ], output: output)
        let status = BuiltTool.waitForExit(pid)
        let text = TemporaryFiles.read(output)
        guard status == 0 else { throw BenchmarkFailure("wrk failed: \(text)") }
        if text.contains("Socket errors") || text.contains("Non-2xx or 3xx") {
            throw BenchmarkFailure("wrk saw failed requests against port \(port): \(text)")
        }
        guard let range = text.firstRange(of: "Requests/sec:"),
            let rate = Double(text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }),
            rate > 0
        else { throw BenchmarkFailure("no rate in wrk's output: \(text)") }
        return 1e9 / rate
    }

    /// A Lua string literal.
    private static func luaString(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }
}
