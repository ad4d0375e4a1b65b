#if os(Linux)
    import Foundation

    /// Everything about some directory trees that an attack could change, entry by entry:
    /// type, mode, owner, group, link count, size, modification and change times, a link's
    /// target and a file's bytes. Two snapshots that are equal mean nothing was created,
    /// removed, renamed, linked, written or re-permissioned there (a rename or a new hard link
    /// changes the change time even when the bytes stay).
    ///
    /// Taken without following links. Access times are left out: reading a file is what
    /// ``DirectoryActivity`` sees.
    struct FileTreeSnapshot: Equatable {
        /// One entry of a tree.
        struct Entry: Equatable, CustomStringConvertible {
            var type: String
            var mode: mode_t
            var uid: uid_t
            var gid: gid_t
            var links: UInt
            var size: Int
            var modified: timespec
            var changed: timespec
            var target: String?
            var content: [UInt8]?

            static func == (lhs: Entry, rhs: Entry) -> Bool {
                lhs.description == rhs.description && lhs.content == rhs.content
            }

            var description: String {
                let mode = String(mode & 0o7777, radix: 8)
                let times = "mtime \(modified.tv_sec).\(modified.tv_nsec), ctime \(changed.tv_sec).\(changed.tv_nsec)"
                let shown = content.map {
                    " content \(String(decoding: $0.prefix(80), as: UTF8.self).debugDescription)"
                }
                return "\(type) \(mode) \(uid):\(gid), \(links) links, \(size) bytes, \(times)"
                    + (target.map { " -> \($0)" } ?? "") + (shown ?? "")
            }
        }

        /// Entries by path.
        private(set) var entries: [String: Entry] = [:]

        /// Records every entry under each of `roots` (and the roots themselves).
        init(_ roots: [String]) throws {
            for root in roots { try record(root) }
        }

        /// What differs from `earlier`, one line per path (empty when nothing does).
        func differences(from earlier: FileTreeSnapshot) -> [String] {
            Set(entries.keys).union(earlier.entries.keys).sorted().compactMap { path in
                switch (earlier.entries[path], entries[path]) {
                case (let before?, let after?) where before != after: "\(path) changed: \(before) => \(after)"
                case (nil, let after?): "\(path) appeared: \(after)"
                case (let before?, nil): "\(path) disappeared (was \(before))"
                default: nil
                }
            }
        }

        private mutating func record(_ path: String) throws {
            var status = stat()
            guard lstat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var entry = Entry(
                type: Self.typeName(status.st_mode), mode: status.st_mode, uid: status.st_uid, gid: status.st_gid,
                links: UInt(status.st_nlink), size: Int(status.st_size), modified: status.st_mtim,
                changed: status.st_ctim)
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                entry.target = try FileManager.default.destinationOfSymbolicLink(atPath: path)
            case S_IFREG:
                entry.content = try Self.contents(of: path)
            case S_IFDIR:
                for name in try FileManager.default.contentsOfDirectory(atPath: path) { try record(path + "/" + name) }
            default:
                break
            }
            entries[path] = entry
        }

        private static func contents(of path: String) throws -> [UInt8] {
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer[..<count]
            }
            return bytes
        }

        private static func typeName(_ mode: mode_t) -> String {
            switch mode & S_IFMT {
            case S_IFDIR: "directory"
            case S_IFREG: "file"
            case S_IFLNK: "link"
            case S_IFSOCK: "socket"
            default: "other"
            }
        }
    }
#endif
