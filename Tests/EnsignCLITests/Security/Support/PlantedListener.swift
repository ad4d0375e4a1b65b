#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    @testable import EnsignControl

    /// A socket the attacker listens on, planted where root might look for an app: a lure
    /// that records every connection, so a test can tell that a client refused it without
    /// connecting (and so sent it nothing).
    ///
    /// The listener is `EnsignControlProbe listen-as`, running as the attacker. Its output
    /// comes through a pipe, read line by line, so the test waits for `listening` (and later
    /// for the report) without polling. It accepts connections in the order they were made,
    /// and ``connectionsMade()`` connects last with a sentinel, so every connection made
    /// before it is counted, with no waiting on time.
    final class PlantedListener {
        let path: String
        private let process: Process
        private let output: FileHandle
        private var printed = ""

        init(user: ThrowawayUser, path: String) throws {
            self.path = path
            process = Process()
            process.executableURL = BuiltExecutable.url(named: "EnsignControlProbe")
            process.arguments = ["listen-as", "\(user.uid)", "\(user.gid)", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.standardInput = FileHandle.nullDevice
            output = pipe.fileHandleForReading
            try process.run()
            guard readLines(until: "listening") else {
                throw Attacker.PlantingFailed(description: "the attacker's listener did not start: \(printed)")
            }
        }

        deinit { stop() }

        /// Ends the probe if it still runs (a test that failed before asking leaves it waiting):
        /// its user cannot be removed while it does.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// The first line of every connection made so far (an empty line for one that sent
        /// nothing). Ends the listener.
        func connectionsMade() throws -> [String] {
            let descriptor = try UnixSocket.connect(to: path)
            defer { close(descriptor) }
            try UnixSocket.sendAll(descriptor, Array("sentinel\n".utf8))
            guard readLines(until: "sentinel after") else {
                throw Attacker.PlantingFailed(description: "the attacker's listener ended early: \(printed)")
            }
            process.waitUntilExit()
            return printed.split(separator: "\n").compactMap {
                $0.hasPrefix("connection: ") ? String($0.dropFirst(12)) : nil
            }
        }

        /// Reads the probe's output until a line starts with `prefix` (true) or it ends (false).
        private func readLines(until prefix: String) -> Bool {
            while !printed.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) {
                let data = output.availableData
                guard !data.isEmpty else { return false }
                printed += String(decoding: data, as: UTF8.self)
            }
            return true
        }
    }
#endif
