import Foundation

/// The files of a soak run, and the rewrites the driver makes to them.
///
/// Each rewrite also changes the file cosmetically (a comment, the key order, flow or block
/// style), so even the keys whose values stay put are re-read by the reload.
struct SoakFiles: Sendable {
    let directory: String
    var flagsDirectory: String { directory + "/flags" }
    var stateDirectory: String { directory + "/state" }
    var runtimeDirectory: String { directory + "/run" }
    var overridesFile: String { stateDirectory + "/overrides.yaml" }
    var preferencesFile: String { stateDirectory + "/preferences.yaml" }
    var socketPath: String { runtimeDirectory + "/soak.sock" }
    var overlayFile: String { flagsDirectory + "/environments/\(SoakPlan.environment).yaml" }

    func definitionsFile(_ file: Int) -> String { flagsDirectory + "/soak\(file).yaml" }

    /// Creates the directories (private, as the library requires for state) and the files at round 0.
    static func create(in directory: String) throws -> SoakFiles {
        let files = SoakFiles(directory: directory)
        let manager = FileManager.default
        try manager.createDirectory(atPath: files.flagsDirectory + "/environments", withIntermediateDirectories: true)
        for private_ in [files.stateDirectory, files.runtimeDirectory] {
            try manager.createDirectory(atPath: private_, withIntermediateDirectories: true)
            chmod(private_, 0o700)
        }
        for file in 0..<SoakPlan.fileCount {
            try replace(files.definitionsFile(file), with: definitions(file: file, round: 0, rewrite: 0))
        }
        try replace(files.overlayFile, with: overlay(rewrite: 0))
        return files
    }

    /// The definitions file `file` at `round` (its file keys' values), styled by `rewrite`.
    static func definitions(file: Int, round: Int, rewrite: Int) -> String {
        var text = "# rewrite \(rewrite), round \(round)\nversion: 1\nnamespace: soak\(file)\nflags:\n"
        let count = SoakPlan.keysPerFile
        for offset in 0..<count {
            let index = (offset + rewrite * 37) % count
            let value = SoakPlan.definedValue(index: index, round: round)
            if (index + rewrite).isMultiple(of: 2) {
                text += "  k\(index): { type: int, default: \(value) }\n"
            } else {
                text += "  k\(index):\n    type: int\n    default: \(value)\n"
            }
        }
        return text
    }

    /// The overlay: the same values every time, styled by `rewrite`.
    static func overlay(rewrite: Int) -> String {
        var text = "# rewrite \(rewrite)\nflags:\n"
        for file in 0..<SoakPlan.fileCount {
            for index in SoakPlan.overlayKeys {
                text += "  \(SoakPlan.key(file: file, index: index)): \(SoakPlan.overlayValue(index: index))\n"
            }
        }
        return text
    }

    /// Replaces `path` atomically (a temporary file renamed over it), as deployment tools do.
    static func replace(_ path: String, with text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Truncates `path` in place, waits `pause`, then writes `text` into it, as some editors do.
    static func truncateThenWrite(_ path: String, with text: String, pause: Duration) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw SoakError("cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        Thread.sleep(forTimeInterval: pause.seconds)
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 else { throw SoakError("cannot write \(path): errno \(errno)") }
            written += result
        }
    }
}

/// A soak failure or set-up problem, with its reason.
struct SoakError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
