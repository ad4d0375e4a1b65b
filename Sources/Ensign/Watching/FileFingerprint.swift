#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cheap identity of a set of files (path, inode, size, modification time), and a content
/// hash to tell a real change from a touch: a reload happens only when the bytes changed.
struct FileFingerprint: Hashable, Sendable {
    private var stats: [String: [Int]] = [:]

    /// The stat identity of each file (links followed); missing files are recorded as missing.
    init(files: [String]) {
        for path in files {
            var status = stat()
            if stat(path, &status) == 0 {
                #if canImport(Darwin)
                    let modified = status.st_mtimespec
                #else
                    let modified = status.st_mtim
                #endif
                stats[path] = [Int(status.st_ino), Int(status.st_size), Int(modified.tv_sec), Int(modified.tv_nsec)]
            } else {
                stats[path] = []
            }
        }
    }

    /// FNV-1a over each file's path and bytes, in path order: the same on every run, so it
    /// can be logged and compared across processes.
    static func contentHash(of files: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        for path in files.sorted() {
            mix(path.utf8)
            mix([0])
            if let bytes = try? YAMLParser().readFile(at: path) {
                mix(bytes)
            } else {
                mix([0xFF, 0xFE])  // missing or unreadable differs from empty
            }
        }
        return hash
    }
}
