#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls persistence and watching need, with errors that name the path and the
/// system's reason. The one place these calls live.
enum FileSystem {
    /// A failed system call: what was being done, to which path, and why.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ action: String, _ path: String, errno code: Int32 = errno) {
            description = "cannot \(action) \(path): \(String(cString: strerror(code)))"
        }

        init(description: String) {
            self.description = description
        }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Writes `bytes` to `path` durably and atomically: a temporary file in the same
    /// directory, fsync, rename over `path`, fsync of the directory. A reader (or a crash)
    /// sees either the old file or the new one, never a mix.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let directory = parentDirectory(of: path)
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("create", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = Failure("write", temporary)
                close(descriptor)
                unlink(temporary)
                throw failure
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let failure = Failure("fsync", temporary)
            close(descriptor)
            unlink(temporary)
            throw failure
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = Failure("rename \(temporary) to", path)
            unlink(temporary)
            throw failure
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)  // makes the rename itself durable
            close(directoryDescriptor)
        }
    }

    /// Runs `body` holding an exclusive advisory lock (`flock`) on `<path>.lock`, shared by
    /// every process writing `path`. A separate lock file, because the data file is replaced
    /// by rename and a lock on the old inode would not exclude anyone.
    static func withExclusiveLock<Result>(
        for path: String, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let lockPath = path + ".lock"
        makeDirectories(parentDirectory(of: path))
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("open lock file", lockPath) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure("lock", lockPath) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Renames `path` to `<path>.corrupt-<UTC time>` and returns the new path.
    static func setAside(_ path: String) throws(Failure) -> String {
        let stamp = WallClockTime.now().description
            .replacingColons()
        var aside = "\(path).corrupt-\(stamp)"
        var suffix = 1
        while exists(aside) {
            suffix += 1
            aside = "\(path).corrupt-\(stamp)-\(suffix)"
        }
        guard rename(path, aside) == 0 else { throw Failure("set aside", path) }
        return aside
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func makeDirectories(_ path: String) {
        guard !path.isEmpty, !exists(path) else { return }
        makeDirectories(parentDirectory(of: path))
        mkdir(path, 0o755)
    }
}

extension String {
    /// `2026-11-29T14-03-07.123Z`: a timestamp safe in file names on every platform.
    fileprivate func replacingColons() -> String {
        String(map { $0 == ":" ? "-" : $0 })
    }
}
