import Foundation

/// A private runtime directory (mode 0700, short enough for socket paths), removed when released.
///
/// `TemporaryDirectory` lives under `$TMPDIR`, which may be too deep for a socket path's
/// 108 bytes; this one is made with `mkdtemp` directly under `/tmp`.
public final class TemporaryRuntimeDirectory {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        var template = Array("/tmp/ensign-run-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: created)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
