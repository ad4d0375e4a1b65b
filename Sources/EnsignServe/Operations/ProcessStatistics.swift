#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The serving process's resident memory, threads and open descriptors, read from `/proc` on
/// Linux (elsewhere `nil`): the `process_*` metrics, and what the scale tests bound.
struct ProcessStatistics: Sendable, Equatable {
    var residentBytes: Int
    var threads: Int
    var openDescriptors: Int

    /// The statistics now; `nil` where `/proc` is not there.
    static func current() -> ProcessStatistics? {
        #if os(Linux)
            guard let status = readSmallFile("/proc/self/status") else { return nil }
            var resident = 0
            var threads = 0
            for line in status.split(separator: "\n") {
                if line.hasPrefix("VmRSS:") {
                    resident =
                        (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
                            ?? 0) * 1024
                } else if line.hasPrefix("Threads:") {
                    threads = Int(line.split(separator: "\t", omittingEmptySubsequences: true).last ?? "") ?? 0
                }
            }
            return ProcessStatistics(residentBytes: resident, threads: threads, openDescriptors: countDescriptors())
        #else
            return nil
        #endif
    }

    #if os(Linux)
        private static func readSmallFile(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 8192)
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            return String(decoding: bytes[..<count], as: UTF8.self)
        }

        private static func countDescriptors() -> Int {
            guard let directory = opendir("/proc/self/fd") else { return 0 }
            defer { closedir(directory) }
            var count = 0
            // The name's first byte read where it is: a dirent is only as long as its name, so
            // copying the 256-byte `d_name` field reads past the end of readdir's buffer.
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            while let entry = readdir(directory) {
                let first = UnsafeRawPointer(entry).load(fromByteOffset: nameOffset, as: UInt8.self)
                if first != UInt8(ascii: ".") { count += 1 }
            }
            // Less the directory's own descriptor, open while it is read.
            return max(0, count - 1)
        }
    #endif
}
