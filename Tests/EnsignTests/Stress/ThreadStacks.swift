import EnsignTestSupport
import Foundation

/// Every thread's stack of a running process, for the report of a stalled stress run.
///
/// gdb attaches and prints `thread apply all bt` (`scripts/setup --with-test-tools` installs
/// it); the Swift names are demangled with `swift demangle`. When gdb is missing or cannot
/// attach (ptrace refused: Yama's `ptrace_scope` lets only ancestors attach), the process
/// gets SIGABRT instead: with `SWIFT_BACKTRACE` set (as the watchdog starts it), the Swift
/// runtime prints a crash report, which shows the thread the signal landed on.
enum ThreadStacks {
    /// The environment that makes the Swift runtime print a backtrace on a fatal signal.
    static let backtraceEnvironment = [
        "SWIFT_BACKTRACE": "enable=yes,threads=all,interactive=no,color=no,registers=none,images=none"
    ]

    /// Why gdb gave no stacks.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The stacks of process `pid`, which keeps running (the caller kills it).
    static func fromDebugger(pid: Int32) -> Result<String, Unavailable> {
        guard let gdb = executableOnPath("gdb") else {
            return .failure(
                Unavailable(description: "gdb is not installed (scripts/setup --with-test-tools installs it)"))
        }
        let commands = ["set pagination off", "set debuginfod enabled off", "set print thread-events off"]
        let arguments =
            ["-batch", "-nx", "-p", "\(pid)"] + commands.flatMap { ["-ex", $0] } + ["-ex", "thread apply all bt"]
        guard let directory = try? TemporaryDirectory() else {
            return .failure(Unavailable(description: "no temporary directory for gdb's output"))
        }
        let outputPath = directory.path + "/gdb-output"
        let status = UnmaskedProcess.run(gdb.path, arguments, output: outputPath, timeout: .seconds(120))
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status != nil else {
            return .failure(Unavailable(description: "gdb did not finish within 120 s: \(output.suffix(500))"))
        }
        let stacks = output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") || $0.isEmpty }
            .joined(separator: "\n")
        guard stacks.contains("#0") else {
            return .failure(Unavailable(description: "gdb could not attach: \(output.suffix(500))"))
        }
        return .success(demangled(stacks))
    }

    /// Demangles Swift symbols in `text` with `swift demangle --simplified`, or returns it as is.
    static func demangled(_ text: String) -> String {
        guard let swift = executableOnPath("swift") else { return text }
        guard let directory = try? TemporaryDirectory(), let input = try? directory.write("stacks", text),
            let output = try? directory.write("demangled", ""),
            let reading = FileHandle(forReadingAtPath: input), let writing = FileHandle(forWritingAtPath: output)
        else { return text }
        let process = Process()
        process.executableURL = swift
        process.arguments = ["demangle", "--simplified"]
        process.standardInput = reading
        process.standardOutput = writing
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil, BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(60)),
            process.terminationStatus == 0, let result = try? String(contentsOfFile: output, encoding: .utf8),
            !result.isEmpty
        else { return text }
        return result
    }

    /// The first executable called `name` in `$PATH`.
    static func executableOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
