import Foundation

/// A fresh temporary directory for a test's files, removed when released.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// try directory.write("flags/app.yaml", "flags:\n  a: { default: 1 }\n")
/// ```
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ensign-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `relativePath`, creating directories on the way; returns the full path.
    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> String {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Creates a symbolic link at `relativePath` pointing to `destination`.
    public func link(_ relativePath: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: URL(fileURLWithPath: path).appendingPathComponent(relativePath).path,
            withDestinationPath: destination)
    }
}
