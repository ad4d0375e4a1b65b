#if os(Linux)
    import Foundation

    /// What happened inside some directories while an attack ran, seen by inotify: every file
    /// (or the directory itself) opened, read, written, created, removed, renamed or changed
    /// in its attributes there, by any process.
    ///
    /// A snapshot of the tree (``FileTreeSnapshot``) shows what changed; this also shows what
    /// was only read or listed, which leaves no trace, or created and removed again. The
    /// kernel queues each event as the operation happens, so once the attacking process has
    /// exited, ``stop()`` has them all: nothing to wait for.
    final class DirectoryActivity {
        private let descriptor: Int32
        private var directories: [Int32: String] = [:]
        private var isStopped = false

        /// Starts watching each directory under `roots` (not following links).
        init(watching roots: [String]) throws {
            descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let mask =
                UInt32(IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_OPEN | IN_MOVED_FROM | IN_MOVED_TO)
                | UInt32(IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW)
            for directory in roots.flatMap(Self.directories(under:)) {
                let watch = inotify_add_watch(descriptor, directory, mask)
                guard watch >= 0 else {
                    close(descriptor)
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                directories[watch] = directory
            }
        }

        deinit { if !isStopped { close(descriptor) } }

        /// Stops watching; what happened, one line per event (`open overrides.yaml in /…/state`).
        func stop() -> [String] {
            defer {
                close(descriptor)
                isStopped = true
            }
            var events: [String] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + 16 <= count {
                    // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
                    let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                        (
                            raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let name = String(
                        decoding: buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                    let directory = directories[watch] ?? "watch \(watch)"
                    events.append("\(Self.describe(mask)) \(name.isEmpty ? "(the directory)" : name) in \(directory)")
                    offset += 16 + length
                }
            }
            return events.filter { !$0.hasPrefix("ignored") }
        }

        private static func describe(_ mask: UInt32) -> String {
            let names: [(Int, String)] = [
                (Int(IN_ACCESS), "read"), (Int(IN_MODIFY), "write"), (Int(IN_ATTRIB), "attributes"),
                (Int(IN_CLOSE_WRITE), "close-after-write"), (Int(IN_OPEN), "open"), (Int(IN_MOVED_FROM), "moved-from"),
                (Int(IN_MOVED_TO), "moved-to"), (Int(IN_CREATE), "create"), (Int(IN_DELETE), "delete"),
                (Int(IN_DELETE_SELF), "delete-self"), (Int(IN_MOVE_SELF), "move-self"), (Int(IN_IGNORED), "ignored"),
            ]
            let matched = names.filter { mask & UInt32($0.0) != 0 }.map(\.1)
            return matched.isEmpty ? "event \(String(mask, radix: 16))" : matched.joined(separator: "+")
        }

        /// `root` and every directory below it, links not followed.
        private static func directories(under root: String) -> [String] {
            var status = stat()
            guard lstat(root, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            return [root] + names.flatMap { directories(under: root + "/" + $0) }
        }
    }
#endif
