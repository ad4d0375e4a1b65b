#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system helpers for configuration directories, on POSIX calls so the core library
/// does not need Foundation.
package enum ConfigDirectory {
    /// What listing a directory found: the configuration files it will read, and the entries
    /// it cannot read, each an error naming its path.
    package struct Listing {
        package var files: [String] = []
        package var problems: [Diagnostic] = []
    }

    /// Regular files (links followed) with a configuration extension directly in `directory`,
    /// skipping names that start with `.`, sorted by name.
    ///
    /// An entry named like a configuration file that cannot be read — a dangling link, a link
    /// loop, a FIFO, a socket, a device, a directory — is a problem, never skipped silently
    /// (the app would start with fewer keys). A directory that does not exist lists nothing
    /// (`missingIsProblem` makes it an error); one that cannot be listed is an error.
    package static func listing(of directory: String, missingIsProblem: Bool = false) -> Listing {
        var listing = Listing()
        guard let handle = opendir(directory) else {
            let code = errno
            if code != ENOENT || missingIsProblem {
                listing.problems.append(
                    Diagnostic(.error, at: .unknown(directory), "cannot list the directory: \(reason(code))"))
            }
            return listing
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."),
                DefinitionLoader.fileExtensions.contains(String(name[name.index(after: dot)...]).lowercased())
            else { continue }
            let path = join(directory, name)
            if let problem = problem(with: path) {
                listing.problems.append(Diagnostic(.error, at: .unknown(path), problem))
            } else {
                names.append(name)
            }
        }
        listing.files = names.sorted().map { join(directory, $0) }
        listing.problems.sort { $0.location < $1.location }
        return listing
    }

    /// Why `path` cannot be read as a configuration file, or `nil` when it is a regular file
    /// (after following links).
    private static func problem(with path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            switch code {
            case ENOENT: return "it is a symbolic link to nothing (dangling); fix or remove the link"
            case ELOOP: return "it is a symbolic link loop; fix or remove the link"
            default: return "cannot read it: \(reason(code))"
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory, not a file; only files are read here"
        case S_IFIFO: return "it is a FIFO, not a regular file; only regular files are read"
        case S_IFSOCK: return "it is a socket, not a regular file; only regular files are read"
        default: return "it is a device, not a regular file; only regular files are read"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Whether `path` is a directory (links followed).
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `production` for `flags/environments/production.yaml`.
    package static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: ".") else { return file }
        return String(file[..<dot])
    }
}
