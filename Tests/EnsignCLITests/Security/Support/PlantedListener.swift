#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    @testable import EnsignControl

    /// A socket the attacker listens on, planted where root might look for an app: a lure
    /// that records every connection, so a test can tell that a client refused it without
    /// connecting (and so sent it nothing).
    ///
    /// The listener is `EnsignControlProbe listen-as`, running as the attacker. It accepts
    /// connections in the order they were made; ``connectionsMade()`` connects last with a
    /// sentinel, so every connection made before it is counted, with no waiting on time.
    final class PlantedListener {
        let path: String
        private let process: Process
        private let files: TemporaryDirectory
        private var output: String { files.path + "/stdout" }

        init(user: ThrowawayUser, path: String) throws {
            self.path = path
            files = try TemporaryDirectory()
            let output = try files.write("stdout", "")
            let errors = try files.write("stderr", "")
            process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "EnsignControlProbe"),
                ["listen-as", "\(user.uid)", "\(user.gid)", path], output: output, errors: errors)
            // The probe says `listening` once connections would queue; until then a client's
            // connection could not be counted. Its output file is the only signal it has.
            let deadline = ContinuousClock.now + .seconds(30)
            while !printed().contains("listening\n") {
                guard process.isRunning, ContinuousClock.now < deadline else {
                    throw Attacker.PlantingFailed(
                        description: "the attacker's listener did not start: \(printed())"
                            + ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""))
                }
                usleep(1_000)
            }
        }

        deinit {
            // A test that failed before asking may leave the probe waiting; its user must go.
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// The first line of every connection made so far (an empty line for one that sent
        /// nothing). Ends the listener.
        func connectionsMade() throws -> [String] {
            let descriptor = try UnixSocket.connect(to: path)
            defer { close(descriptor) }
            try UnixSocket.sendAll(descriptor, Array("sentinel\n".utf8))
            guard BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(30)) else {
                throw Attacker.PlantingFailed(description: "the attacker's listener did not report: \(printed())")
            }
            let lines = printed().split(separator: "\n").map(String.init)
            guard lines.contains(where: { $0.hasPrefix("sentinel after") }) else {
                throw Attacker.PlantingFailed(description: "the attacker's listener ended early: \(printed())")
            }
            return lines.compactMap { $0.hasPrefix("connection: ") ? String($0.dropFirst(12)) : nil }
        }

        private func printed() -> String {
            (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
    }
#endif
