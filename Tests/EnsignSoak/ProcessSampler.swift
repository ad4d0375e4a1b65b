import Foundation

/// Resident memory, open descriptors and threads of a process, read from `/proc`.
struct ProcessSample: Sendable {
    var elapsed: Duration
    var residentBytes: Int
    var descriptors: Int
    var threads: Int
    /// The heap in use, as the app's allocator counts it.
    var heapBytes: Int?
    /// Changes the driver had caused by then.
    var changes: Int

    /// Reads the figures of process `pid` now.
    static func read(pid: Int32, elapsed: Duration, changes: Int, heapBytes: Int?) -> ProcessSample? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }
                .flatMap { Int($0) }
        }
        guard let residentKiB = field("VmRSS"), let threads = field("Threads"),
            let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        else { return nil }
        return ProcessSample(
            elapsed: elapsed, residentBytes: residentKiB * 1024, descriptors: descriptors, threads: threads,
            heapBytes: heapBytes, changes: changes)
    }

    var line: String {
        let seconds = Int(elapsed.seconds.rounded())
        let time = seconds >= 60 && seconds.isMultiple(of: 60) ? "minute \(seconds / 60)" : "\(seconds) s"
        return "soak: \(time): resident \(megabytes(residentBytes)), heap \(heapBytes.map(megabytes) ?? "unknown"), "
            + "\(descriptors) descriptors, \(threads) threads, \(changes) changes"
    }
}

/// `bytes` in MB with one decimal.
func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}
