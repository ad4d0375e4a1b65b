import Ensign
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory that holds the control sockets of one user's running apps.
///
/// `$ENSIGN_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/ensign`, else `/tmp/ensign-<uid>`. The
/// directory is private to its user (mode 0700); a server refuses to put its socket in a
/// directory that another user owns or can enter, or could move or redirect (one below
/// their directory or link), and clients refuse to look in one.
public enum ControlRuntimeDirectory {
    /// The runtime directory for this process's user and environment.
    public static var defaultPath: String {
        path(
            ensignRuntimeDirectory: ProcessEnvironment.nonEmptyValue("ENSIGN_RUNTIME_DIR"),
            xdgRuntimeDirectory: ProcessEnvironment.nonEmptyValue("XDG_RUNTIME_DIR"), uid: geteuid())
    }

    /// The runtime directory for the given environment values (empty ones count as unset).
    static func path(ensignRuntimeDirectory: String?, xdgRuntimeDirectory: String?, uid: uid_t) -> String {
        if let path = ensignRuntimeDirectory, !path.isEmpty { return normalized(path) }
        if let path = xdgRuntimeDirectory, !path.isEmpty { return normalized(path) + "/ensign" }
        return "/tmp/ensign-\(uid)"
    }

    /// `path` without trailing or doubled slashes.
    ///
    /// A trailing slash makes `lstat` follow a symbolic link (`link/` names the directory the
    /// link points to), which would let a link pass the check that refuses links.
    static func normalized(_ path: String) -> String {
        PathTrust.normalized(path)
    }

    /// The directory that holds `path`.
    static func parent(of path: String) -> String {
        let path = normalized(path)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Checks a directory that holds a socket named explicitly (not in the runtime
    /// directory): a real directory that no one but its owner can write to, owned by `owner`
    /// or by root, reached through directories and links only `owner`, this user or root
    /// could change (`PathTrust`), so no other user can replace the socket in it or lead
    /// the path elsewhere.
    static func checkSocketDirectory(_ directory: String, owner: uid_t) throws(RuntimeDirectoryError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw RuntimeDirectoryError(path: directory, problem: systemReason())
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw RuntimeDirectoryError(path: directory, problem: "it is a symbolic link; give the real directory")
        }
        guard type == S_IFDIR else { throw RuntimeDirectoryError(path: directory, problem: "it is not a directory") }
        guard info.st_uid == owner || info.st_uid == 0 else {
            throw RuntimeDirectoryError(
                path: directory,
                problem:
                    "it belongs to uid \(info.st_uid), not to uid \(owner) or root; put the socket in a directory of your own"
            )
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw RuntimeDirectoryError(
                path: directory,
                problem: "other users can write to it (mode \(String(mode, radix: 8))) and so replace the socket;"
                    + " use a private directory such as the runtime directory")
        }
        if let problem = PathTrust.problem(onTheWayTo: directory, trusting: [owner, geteuid()]) {
            throw RuntimeDirectoryError(
                path: directory, problem: "\(problem); put the socket in a directory of your own")
        }
    }

    /// Creates the directory (and missing parents) with mode 0700, or checks an existing one.
    ///
    /// The way to it is checked before anything is created, so that no directory is made
    /// where another user's directory or link leads, and again after.
    ///
    /// - Throws: ``RuntimeDirectoryError`` when the path is not a directory, is a symbolic
    ///   link, belongs to another user, or is open to group or others, or when another user
    ///   could change the way to it.
    public static func prepare(_ path: String) throws(RuntimeDirectoryError) {
        let path = normalized(path)
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw RuntimeDirectoryError(path: path, problem: systemReason()) }
            try checkWay(to: path)
            try createDirectories(path)
        }
        try check(path)
    }

    /// Checks that an existing directory is private to this user, and the way to it too (see
    /// ``prepare(_:)``).
    public static func check(_ path: String) throws(RuntimeDirectoryError) {
        let path = normalized(path)
        var info = stat()
        guard lstat(path, &info) == 0 else { throw RuntimeDirectoryError(path: path, problem: systemReason()) }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw RuntimeDirectoryError(
                path: path, problem: "it is a symbolic link; point ENSIGN_RUNTIME_DIR at a real directory")
        }
        guard type == S_IFDIR else { throw RuntimeDirectoryError(path: path, problem: "it is not a directory") }
        let user = geteuid()
        guard info.st_uid == user else {
            throw RuntimeDirectoryError(
                path: path,
                problem:
                    "it belongs to uid \(info.st_uid), not to you (uid \(user)); remove it or set ENSIGN_RUNTIME_DIR")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw RuntimeDirectoryError(
                path: path,
                problem: "other users can access it (mode \(String(mode, radix: 8))); run 'chmod 700 \(path)'")
        }
        try checkWay(to: path)
    }

    /// Checks that no one but this user and root could change where `path` leads (`PathTrust`).
    private static func checkWay(to path: String) throws(RuntimeDirectoryError) {
        guard let problem = PathTrust.problem(onTheWayTo: path, trusting: [geteuid()]) else { return }
        throw RuntimeDirectoryError(
            path: path, problem: "\(problem); point ENSIGN_RUNTIME_DIR at a directory of your own")
    }

    private static func createDirectories(_ path: String) throws(RuntimeDirectoryError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw RuntimeDirectoryError(path: path, problem: "cannot create \(prefix): \(systemReason())")
            }
        }
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}

/// The runtime directory cannot be used safely; nothing was put in it.
public struct RuntimeDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory.
    public var path: String
    /// What is wrong and how to fix it.
    public var problem: String

    /// `the runtime directory /tmp/ensign-0 is unsafe: …`.
    public var description: String { "the runtime directory \(path) cannot be used: \(problem)" }
}
