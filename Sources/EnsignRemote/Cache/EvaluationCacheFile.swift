import Ensign
import EnsignJSON
import EnsignOFREP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The remote source's cache on disk: the last good evaluation, so that a start without the
/// network has the last known values (ADR 0009, local-cache-first).
///
/// It follows the preferences file's rules: written durably and atomically (a temporary file,
/// fsync, rename, fsync of the directory) under an advisory lock, private (0600 in a 0700
/// directory); a directory that is not this user's own, that others can write to, or that
/// another user could redirect is refused, and nothing is read or written there; a file that
/// does not parse is set aside as `<name>.corrupt-<time>` and not used. A crash during a write
/// leaves the old file or the new one, never a mix.
package struct EvaluationCacheFile: Sendable {
    /// The file.
    package let path: String
    /// Ties the file to its server and context (``CachedEvaluation/cacheKey(baseURL:context:)``).
    package let cacheKey: String
    /// How old an evaluation may be and still be used.
    package let timeToLive: Duration

    /// The cache at `path` for `cacheKey`, whose evaluations are used until `timeToLive` old.
    package init(path: String, cacheKey: String, timeToLive: Duration) {
        self.path = path
        self.cacheKey = cacheKey
        self.timeToLive = timeToLive
    }

    /// The largest file read (16 MiB, the largest response the source accepts).
    static let maximumSize = 16 << 20

    /// The cached evaluation if there is a usable one (this context's, not expired), and the
    /// problems found: a refused directory (an error), a file set aside (a warning).
    package func load(now: WallClockTime = .now()) -> (CachedEvaluation?, [Diagnostic]) {
        do throws(FileSystem.Failure) {
            try FileSystem.checkStateDirectory(FileSystem.parentDirectory(of: path))
        } catch {
            return (nil, [Diagnostic(.error, at: .unknown(path), "the remote cache is not used: \(error)")])
        }
        let bytes: [UInt8]
        switch readFile() {
        case .missing: return (nil, [])
        case .unreadable(let reason): return (nil, setAside(because: reason))
        case .bytes(let read): bytes = read
        }
        let cached: CachedEvaluation?
        do {
            cached = try CachedEvaluation.read(try JSONValue(jsonBytes: bytes), cacheKey: cacheKey)
        } catch {
            return (nil, setAside(because: "\(error)"))
        }
        guard let cached else { return (nil, []) }
        let age = now.secondsSince1970 - cached.writtenAt.secondsSince1970
        guard age <= Double(timeToLive.components.seconds) else { return (nil, []) }
        return (cached, [])
    }

    /// Replaces the file with `evaluation`, durably; returns once it is on disk.
    package func store(_ evaluation: CachedEvaluation) throws(FileSystem.Failure) {
        let bytes = Array(evaluation.json(cacheKey: cacheKey).jsonText.utf8)
        try FileSystem.withExclusiveLock(for: path) { () throws(FileSystem.Failure) in
            try FileSystem.writeAtomically(bytes, to: path)
        }
    }

    /// What reading the file found.
    private enum Read {
        case missing
        case unreadable(String)
        case bytes([UInt8])
    }

    /// Reads the file without following a link; it must be a regular file of this user's.
    private func readFile() -> Read {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .missing }
            return .unreadable("cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return .unreadable("it is not a regular file of this user's")
        }
        guard Int(status.st_size) <= Self.maximumSize else { return .unreadable("it is larger than 16 MiB") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .unreadable("cannot read it: \(String(cString: strerror(errno)))") }
            if count == 0 { return .bytes(bytes) }
            bytes += buffer[0..<count]
            guard bytes.count <= Self.maximumSize else { return .unreadable("it is larger than 16 MiB") }
        }
    }

    /// Moves an unusable file out of the way (kept for inspection) and says so.
    private func setAside(because reason: String) -> [Diagnostic] {
        do {
            let aside = try FileSystem.withExclusiveLock(for: path) { () throws(FileSystem.Failure) -> String in
                let aside = try FileSystem.keepAside(path)
                try FileSystem.remove(path)
                return aside
            }
            return [
                Diagnostic(
                    .warning, at: .unknown(path),
                    "the remote cache could not be read (\(reason)), so it was kept aside as \(aside) and is not used")
            ]
        } catch {
            return [
                Diagnostic(
                    .error, at: .unknown(path),
                    "the remote cache could not be read (\(reason)) nor set aside (\(error)); it is not used")
            ]
        }
    }
}
