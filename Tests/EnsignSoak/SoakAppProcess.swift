import Foundation

/// The soak app running as a process of its own (this executable's `app` mode), so that its
/// memory, descriptors and threads are its own and the driver's load reaches it the way a
/// debug CLI's does: through the socket and the files.
final class SoakAppProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    var pid: Int32 { process.processIdentifier }

    /// Starts the app over `directory` and waits for it to say it is serving.
    init(directory: String) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["app", directory]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        guard let line = readLine(), line == "ready" else {
            throw SoakError(
                "the soak app did not start (status \(process.isRunning ? "running" : "\(process.terminationStatus)"))")
        }
    }

    /// Asks the app what it saw.
    func report() throws -> SoakAppReport {
        try send("report")
        guard let line = readLine() else { throw SoakError("the soak app ended before its report") }
        return try JSONDecoder().decode(SoakAppReport.self, from: Data(line.utf8))
    }

    /// The heap the app has allocated and not freed, as it counts it (nil when it cannot tell).
    func heapInUse() -> Int? {
        guard (try? send("heap")) != nil, let line = readLine(), line.hasPrefix("heap ") else { return nil }
        return Int(line.dropFirst(5)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Has the app return its allocator's free pages to the system (glibc's malloc_trim).
    func trimHeap() {
        guard (try? send("trim")) != nil else { return }
        _ = readLine()
    }

    /// Stops the app and waits for it (it is killed after 10 s).
    func quit() -> Int32 {
        try? send("quit")
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    private func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line the app printed, or `nil` at its end.
    private func readLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { return nil }
            buffered.append(contentsOf: data)
        }
    }
}
