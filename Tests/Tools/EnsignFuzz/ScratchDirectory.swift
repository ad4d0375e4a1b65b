#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `directory` target's private scratch directory: one per process (created once,
/// emptied for each input, removed at exit), in memory-backed `/dev/shm` when there is one,
/// since every input writes and reads a handful of files. POSIX calls only, so the fuzzer
/// needs no Foundation.
enum ScratchDirectory {
    /// The directory, mode 0700: `/dev/shm/ensign-fuzz-directory.<pid>` or under `$TMPDIR`.
    static let root: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        let path = "\(base)/ensign-fuzz-directory.\(getpid())"
        removeTree(path)  // left by an earlier process with this pid that crashed
        guard mkdir(path, 0o700) == 0 else { fatalError("cannot create the scratch directory \(path)") }
        atexit { ScratchDirectory.removeTree(ScratchDirectory.root) }
        return path
    }()

    /// Removes `path` and, for a directory, everything in it (links are removed, not followed).
    static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        if let handle = opendir(path) {
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(handle)
            for name in names { removeTree(path + "/" + name) }
        }
        rmdir(path)
    }

    /// Creates the directory `path` with `mode` (0700 for everything here).
    static func makeDirectory(_ path: String, mode: mode_t = 0o700) {
        mkdir(path, mode)
    }

    /// Writes `bytes` to the file `path` (created 0600, or truncated); false when it cannot.
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                systemWrite(descriptor, $0.baseAddress! + written, bytes.count - written)
            }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}

/// `write(2)`, which ``ScratchDirectory/write(_:to:)`` shadows inside the enum.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
