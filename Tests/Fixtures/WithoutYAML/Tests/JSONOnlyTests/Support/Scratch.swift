import Foundation

/// A private temporary directory for one test, removed when released.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ensign-noyaml-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` at `relativePath` (directories created); returns the full path.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path + "/" + relativePath, encoding: .utf8)
    }
}

/// The bundle of the sample app's flags, checked in next to Package.swift.
let sampleBundlePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Flags.bundle.json").path
