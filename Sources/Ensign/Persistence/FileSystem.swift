#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls persistence and watching need, with errors that name the path and the
/// system's reason. The one place these calls live.
package enum FileSystem {
    /// A failed system call: what was being done, to which path, and why.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(_ action: String, _ path: String, errno code: Int32 = errno) {
            description = "cannot \(action) \(path): \(String(cString: strerror(code)))"
        }

        package init(description: String) {
            self.description = description
        }
    }

    /// Whether anything (a link included, when it leads somewhere) exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Writes `bytes` to `path` durably and atomically: a temporary file in the same
    /// directory, fsync, rename over `path`, fsync of the directory. A reader (or a crash)
    /// sees either the old file or the new one, never a mix. The file is private (0600).
    ///
    /// The temporary file is created with `O_EXCL | O_NOFOLLOW` under a name nobody can
    /// predict, so a link planted in the directory is never followed; callers check the
    /// directory first (``checkPrivateDirectory(_:)``).
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let directory = parentDirectory(of: path)
        let (descriptor, temporary) = try createTemporaryFile(next: path)
        let fault = FileSystemFaults.fault(forWriting: path)
        var written = 0
        while written < bytes.count {
            // An injected fault lets half the data through first: what a filling disk does.
            let limit = fault == nil ? bytes.count : bytes.count / 2
            var count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, limit - written) }
            if let fault, written + max(count, 0) >= limit {
                (count, errno) = (-1, fault)
            }
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
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)  // makes the rename itself durable
            close(directoryDescriptor)
        }
    }

    /// A new private file next to `path`, created exclusively (never an existing file or a link).
    private static func createTemporaryFile(next path: String) throws(Failure) -> (Int32, String) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<16 {
            let temporary = "\(path).tmp-\(getpid())-\(String(generator.next() as UInt64, radix: 36))"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST else { throw Failure("create", temporary) }
        }
        throw Failure(description: "cannot create a temporary file next to \(path): every name tried exists")
    }

    /// Runs `body` holding an exclusive advisory lock (`flock`) on `<path>.lock`, shared by
    /// every process writing `path`. A separate lock file, because the data file is replaced
    /// by rename and a lock on the old inode would not exclude anyone.
    ///
    /// The directory is checked first and created private (0700) when missing; the lock file
    /// is opened without following links and must be a regular file of this user's.
    package static func withExclusiveLock<Result>(
        for path: String, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let lockPath = path + ".lock"
        try preparePrivateDirectory(parentDirectory(of: path))
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure("open lock file", lockPath) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            throw Failure(description: "cannot use lock file \(lockPath): it is not a regular file of this user's")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure("lock", lockPath) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Creates `path` (and missing parents) private to this user (0700), or checks that the
    /// existing directory is safe to keep state in (``checkPrivateDirectory(_:)``).
    ///
    /// The way to it is checked first, so that nothing is created where another user could
    /// change where the path leads, and again after, in case they changed it meanwhile.
    package static func preparePrivateDirectory(_ path: String) throws(Failure) {
        let path = PathTrust.normalized(path)
        try checkWay(to: path)
        try createMissingDirectories(path)
        try checkPrivateDirectory(path)
    }

    /// Creates the missing directories of `path`, each 0700; existing ones are left as they are.
    private static func createMissingDirectories(_ path: String) throws(Failure) {
        var status = stat()
        guard lstat(path, &status) != 0 else { return }
        guard errno == ENOENT else { throw Failure("inspect", path) }
        let parent = parentDirectory(of: path)
        if parent != path { try createMissingDirectories(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Failure("create directory", path) }
    }

    /// Checks a state directory before anything is read or written in it, whether it exists
    /// yet or not: the directory itself when it does (``checkPrivateDirectory(_:)``), and the
    /// way to it in any case.
    package static func checkStateDirectory(_ path: String) throws(Failure) {
        let path = PathTrust.normalized(path)
        var status = stat()
        if lstat(path, &status) == 0 { return try checkPrivateDirectory(path) }
        guard errno == ENOENT else { throw Failure("inspect", path) }
        try checkWay(to: path)
    }

    /// Checks, before anything is read or written in it, that `path` is a directory (not a
    /// link) that belongs to this user and that no other user can write to, and that no other
    /// user could change the way to it (`PathTrust`): otherwise another user could plant
    /// files or links in it, or put a directory of theirs in its place, for this process to
    /// read or follow. Trailing slashes do not make a link pass.
    package static func checkPrivateDirectory(_ path: String) throws(Failure) {
        let path = PathTrust.normalized(path)
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Failure("inspect", path) }
        let unsafe: String? =
            switch status.st_mode & S_IFMT {
            case S_IFLNK: "it is a symbolic link; give the real directory instead"
            case S_IFDIR where status.st_uid != geteuid():
                "it belongs to uid \(status.st_uid), not to this user (uid \(geteuid())); use a directory of your own"
            case S_IFDIR where status.st_mode & 0o022 != 0:
                "other users can write to it (mode \(String(status.st_mode & 0o777, radix: 8))); run 'chmod go-w \(path)'"
                    + " or use a private directory"
            case S_IFDIR: nil
            default: "it is not a directory"
            }
        if let unsafe { throw Failure(description: "refusing to keep state in \(path): \(unsafe)") }
        try checkWay(to: path)
    }

    /// Checks that no one but this user and root could change where `path` leads.
    private static func checkWay(to path: String) throws(Failure) {
        guard let problem = PathTrust.problem(onTheWayTo: path, trusting: [geteuid()]) else { return }
        throw Failure(
            description: "refusing to keep state in \(path): \(problem); keep state in a directory of your own"
                + " below directories that only you or root can change")
    }

    /// Keeps a copy of `path` as `<path>.corrupt-<UTC time>` (a hard link, so the file also
    /// stays where it is until the caller replaces it) and returns the copy's path. Where hard
    /// links are not supported, the file is renamed instead.
    package static func keepAside(_ path: String) throws(Failure) -> String {
        let aside = asideName(for: path)
        if link(path, aside) == 0 { return aside }
        guard rename(path, aside) == 0 else { throw Failure("set aside", path) }
        return aside
    }

    /// Undoes ``keepAside(_:)`` after the file could not be replaced: `path` gets its old
    /// content back (when it was renamed) and the copy goes.
    static func restore(_ aside: String, to path: String) {
        if exists(path) {
            unlink(aside)
        } else {
            rename(aside, path)
        }
    }

    /// Removes a file; one that is already gone is not an error.
    package static func remove(_ path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw Failure("remove", path) }
    }

    /// A name `<path>.corrupt-<UTC time>` that no file has yet.
    private static func asideName(for path: String) -> String {
        let stamp = WallClockTime.now().description
            .replacingColons()
        var aside = "\(path).corrupt-\(stamp)"
        var suffix = 1
        var status = stat()
        while lstat(aside, &status) == 0 {
            suffix += 1
            aside = "\(path).corrupt-\(stamp)-\(suffix)"
        }
        return aside
    }

    /// The directory that holds `path` (`.` for a bare name, `/` for a file at the root).
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension String {
    /// `2026-11-29T14-03-07.123Z`: a timestamp safe in file names on every platform.
    fileprivate func replacingColons() -> String {
        String(map { $0 == ":" ? "-" : $0 })
    }
}
