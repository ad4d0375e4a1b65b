import EnsignYAML

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

    /// FNV-1a of each file's bytes (a missing or unreadable file has its own value): the same
    /// on every run, so it can be compared across processes and logged.
    ///
    /// Files are streamed in chunks, with the checks of a full read: hashing a large file
    /// right after a context loaded it must not hold a second copy of it (1.28 MB for the
    /// 10,000-flag benchmark file, alive as the context reported its memory).
    static func contentHashes(of files: [String]) -> [String: UInt64] {
        var hashes: [String: UInt64] = [:]
        for path in files {
            var hash = initialHash
            do {
                try YAMLParser().streamFile(at: path) { chunk in hash = Self.hash(chunk, continuing: hash) }
                hashes[path] = hash
            } catch {
                hashes[path] = 0
            }
        }
        return hashes
    }

    /// The hash ``contentHashes(of:)`` gives a file holding `contents`.
    static func contentHash(of contents: [UInt8]) -> UInt64 {
        hash(contents[...], continuing: initialHash)
    }

    private static let initialHash: UInt64 = 0xcbf2_9ce4_8422_2325

    private static func hash(_ bytes: some Sequence<UInt8>, continuing hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// The files whose content differs between two sets of hashes (added and removed ones too), sorted.
    static func changedFiles(from old: [String: UInt64], to new: [String: UInt64]) -> [String] {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
    }
}
