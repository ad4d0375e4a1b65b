#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system helpers for configuration directories, on POSIX calls so the core library
/// does not need Foundation.
enum ConfigDirectory {
    /// An error from the file system, with the path and the system's message.
    struct FileSystemError: Error, CustomStringConvertible {
        let description: String
    }

    /// Regular files (links followed) with a configuration extension directly in `directory`,
    /// skipping names that start with `.`, sorted by name.
    static func files(in directory: String) throws -> [String] {
        guard let handle = opendir(directory) else {
            throw FileSystemError(description: String(cString: strerror(errno)))
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
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        return names.sorted().map { join(directory, $0) }
    }

    /// Whether `path` is a directory (links followed).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `production` for `flags/environments/production.yaml`.
    static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: ".") else { return file }
        return String(file[..<dot])
    }
}
