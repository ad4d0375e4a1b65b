#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether anyone but this user (and root) could change where a path leads: rename, replace
/// or redirect one of the directories on the way to it.
///
/// A directory that passes a check of its own is not yet safe to use. Whoever can write to
/// one of its parents can move it away and put a directory or link of theirs in its place;
/// and a link on the way (`$XDG_STATE_HOME` inside another user's home, a runtime directory
/// below someone's link) sends every later file operation wherever the link's owner likes,
/// past a check that looks at the last component only. So the state directory and the
/// control sockets' directories are used only when the whole way to them can be trusted.
///
/// The walk resolves the path as the kernel does, following links, and asks of every
/// directory it passes through that it belongs to root or a trusted user and that group and
/// others cannot write to it, unless it is sticky (like `/tmp`, where no one can rename or
/// remove what is not theirs); and of every link, that it belongs to root or a trusted user.
/// A component that does not exist yet ends the walk: the caller creates it, in a directory
/// no one else can change.
package enum PathTrust {
    /// Why the way to a path cannot be trusted, naming the directory or link at fault.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// `/home/alex belongs to uid 1001, who could replace anything below it`.
        package var description: String
    }

    /// `path` without doubled or trailing slashes (`/` stays `/`).
    ///
    /// A trailing slash makes `lstat` follow a link (`link/` names the directory the link
    /// points to), which would let a link pass a check that refuses links.
    package static func normalized(_ path: String) -> String {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty else { return path.hasPrefix("/") ? "/" : path }
        return (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }

    /// The first reason not to trust the way to `path`, that is the directories and links
    /// above it (not `path` itself, which the caller checks by rules of its own); `nil` when
    /// no one but root and the users in `owners` could change where `path` leads.
    ///
    /// A relative path is taken from the current directory. Costs one `lstat` per component,
    /// and per component of each link's target.
    package static func problem(onTheWayTo path: String, trusting owners: [uid_t]) -> Problem? {
        var path = normalized(path)
        if !path.hasPrefix("/") {
            guard let current = currentDirectory() else {
                return Problem(description: "cannot find the current directory: \(systemReason())")
            }
            path = current + "/" + path
        }
        let trusted = Set(owners + [0])
        var status = stat()
        guard lstat("/", &status) == 0 else { return Problem(description: "cannot inspect /: \(systemReason())") }
        if let problem = problem(withDirectory: "/", status, trusting: trusted) { return problem }
        var resolved = "/"
        // The components still to walk, the next one last.
        var remaining = Array(components(of: FileSystem.parentDirectory(of: path)).reversed())
        var linksFollowed = 0
        while let name = remaining.popLast() {
            if name == "." { continue }
            if name == ".." {
                resolved = FileSystem.parentDirectory(of: resolved)
                continue
            }
            let next = resolved == "/" ? "/" + name : resolved + "/" + name
            guard lstat(next, &status) == 0 else {
                return errno == ENOENT ? nil : Problem(description: "cannot inspect \(next): \(systemReason())")
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if let problem = problem(withDirectory: next, status, trusting: trusted) { return problem }
                resolved = next
            case S_IFLNK:
                guard trusted.contains(status.st_uid) else {
                    return Problem(
                        description:
                            "\(next) is a symbolic link of uid \(status.st_uid)'s, who could point it elsewhere")
                }
                linksFollowed += 1
                guard linksFollowed <= 40, let target = linkTarget(next) else {
                    return Problem(description: "cannot follow the symbolic link \(next)")
                }
                if target.hasPrefix("/") { resolved = "/" }
                remaining += components(of: target).reversed()
            default:
                return Problem(description: "\(next) is not a directory")
            }
        }
        return nil
    }

    private static func problem(withDirectory path: String, _ status: stat, trusting trusted: Set<uid_t>) -> Problem? {
        guard trusted.contains(status.st_uid) else {
            return Problem(description: "\(path) belongs to uid \(status.st_uid), who could replace anything below it")
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o022 == 0 || mode & S_ISVTX != 0 else {
            return Problem(
                description: "other users can write to \(path) (mode \(String(mode, radix: 8))) and so replace"
                    + " anything below it")
        }
        return nil
    }

    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
