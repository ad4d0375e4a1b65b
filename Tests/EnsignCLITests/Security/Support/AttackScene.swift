#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    /// The ground one attack is played on, with the throwaway user who attacks.
    ///
    /// A workspace directly under `/tmp` (short enough for socket paths, and open to the
    /// attacker to pass through) holds:
    ///
    /// - `shared`: root's, mode 1777 — a directory anyone can create in, like `/tmp`;
    /// - `home`: the attacker's, mode 0755 — their home, where their links live;
    /// - `victim`: root's, mode 0700 — `secret`, a file of root's (0600), and `demo`, a private
    ///   directory of root's that another program keeps an `overrides.yaml` in, which Ensign
    ///   would find invalid (and so set aside) if it ever took the directory for its own;
    /// - `own`: root's, mode 0700 — what the test itself needs (a socket, a state directory),
    ///   where the attack does not reach.
    ///
    /// ``expectUntouched(during:sourceLocation:)`` checks that an attack changed nothing in
    /// `shared`, `home` and `victim` and opened nothing there. Released, the scene ends the
    /// attacker's listeners, removes its workspace and then the user, in that order (a user
    /// with a process still running cannot be removed), however the test ended.
    final class AttackScene {
        let attacker: Attacker
        let workspace: String
        var user: ThrowawayUser { attacker.user }
        var shared: String { workspace + "/shared" }
        var home: String { workspace + "/home" }
        var victim: String { workspace + "/victim" }
        var victimFile: String { victim + "/secret" }
        var victimState: String { victim + "/demo" }
        var own: String { workspace + "/own" }

        /// What root's file holds, and what the other program's state file holds (an invalid
        /// value for the demo's definitions: a start that read it would set it aside).
        static let secret = "root's own data\n"
        static let foreignState = "flags:\n  beneficiaries.pageSize: ten\n"

        init() throws {
            attacker = Attacker(user: try ThrowawayUser())
            var template = Array("/tmp/ensign-sec-XXXXXX".utf8CString)
            guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
            workspace = String(cString: created)
            try Self.makeDirectory(workspace, mode: 0o755)
            try Self.makeDirectory(shared, mode: 0o1777)
            try Self.makeDirectory(home, mode: 0o755)
            guard chown(home, user.uid, user.gid) == 0 else { throw POSIXError(.EPERM) }
            try Self.makeDirectory(victim, mode: 0o700)
            try Self.makeDirectory(victimState, mode: 0o700)
            try Self.makeDirectory(own, mode: 0o700)
            try Self.writeFile(victimFile, Self.secret)
            try Self.writeFile(victimState + "/overrides.yaml", Self.foreignState)
        }

        /// The attacker's listeners, ended before the user is removed.
        private var listeners: [PlantedListener] = []

        deinit {
            for listener in listeners { listener.stop() }
            try? FileManager.default.removeItem(atPath: workspace)
        }

        /// Listens on `path` as the attacker, recording who connects (see ``PlantedListener``).
        func listen(at path: String) throws -> PlantedListener {
            let listener = try PlantedListener(user: user, path: path)
            listeners.append(listener)
            return listener
        }

        /// `shared/ensign-0`, where uid 0's runtime directory would be, created by the attacker
        /// with `mode`.
        func plantRuntimeDirectory(mode: mode_t) throws -> String {
            let runtime = shared + "/ensign-0"
            try attacker.plant([.directory(runtime, mode: mode)])
            return runtime
        }

        /// `shared/ensign-0` as the attacker's link to a private directory of theirs, `home/run`.
        func plantRuntimeDirectoryLink() throws -> String {
            let link = shared + "/ensign-0"
            try attacker.plant([.directory(home + "/run", mode: 0o700), .link(link, to: home + "/run")])
            return link
        }

        /// Runs `attack` and expects that it left `shared`, `home` and `victim` as they were,
        /// entry for entry, and opened, read or wrote nothing in them meanwhile.
        @discardableResult
        func expectUntouched<Outcome>(
            during attack: () throws -> Outcome, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> Outcome {
            let watched = [shared, home, victim]
            let before = try FileTreeSnapshot(watched)
            let activity = try DirectoryActivity(watching: watched)
            let outcome = try attack()
            let events = activity.stop()
            let changes = try FileTreeSnapshot(watched).differences(from: before)
            #expect(
                events.isEmpty, "files were touched:\n\(events.joined(separator: "\n"))", sourceLocation: sourceLocation
            )
            #expect(
                changes.isEmpty, "files were changed:\n\(changes.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
            return outcome
        }

        /// Runs `ensign` as root, in the package root so that `--flags flags` finds the demo's
        /// definitions, with the runtime and state homes in `own` unless `environment` says
        /// otherwise. A command still running after `timeout` (a demo that started instead of
        /// refusing) is killed and reported with status -1 and what it printed, so the test
        /// goes on to show what the attack changed.
        func ensign(
            _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)
        ) throws -> BuiltExecutable.Result {
            var fullEnvironment = [
                "ENSIGN_RUNTIME_DIR": own + "/run", "XDG_RUNTIME_DIR": "", "XDG_STATE_HOME": own + "/state-home",
                "HOME": own, "ENSIGN_ENV": "",
            ]
            fullEnvironment.merge(environment) { $1 }
            let files = try TemporaryDirectory()
            let output = try files.write("stdout", "")
            let errors = try files.write("stderr", "")
            let process = try BuiltExecutable.start(
                executable: BuiltExecutable.url(named: "ensign"), arguments, environment: fullEnvironment,
                output: output, errors: errors)
            let finished = BuiltExecutable.waitForExitOrKill(process, timeout: timeout)
            return BuiltExecutable.Result(
                status: finished ? process.terminationStatus : -1,
                output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
                errors: ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
                    + (finished ? "" : "\n(still running after \(timeout): killed)"))
        }

        /// `ensign demo` with the package's flags and the given options; unless they say
        /// otherwise, its socket and state directory are root's own, in `own`.
        func demo(_ options: [String], environment: [String: String] = [:]) throws -> BuiltExecutable.Result {
            var defaults: [String] = []
            if !options.contains("--socket"), environment["ENSIGN_RUNTIME_DIR"] == nil {
                defaults += ["--socket", own + "/demo.sock"]
            }
            if !options.contains("--state"), environment["HOME"] == nil, environment["XDG_STATE_HOME"] == nil {
                defaults += ["--state", own + "/state"]
            }
            return try ensign(
                ["demo", "--flags", "flags", "--env", "development"] + defaults + options, environment: environment)
        }

        private static func makeDirectory(_ path: String, mode: mode_t) throws {
            guard mkdir(path, 0o700) == 0 || errno == EEXIST, chmod(path, mode) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }

        /// Writes `text` to a new file at `path`, 0600, with a close that certainly happens
        /// before this returns. Written with `FileManager.createFile`, a close-after-write of
        /// `secret` once showed up in the watch of the attack that follows (under the thread
        /// sanitizer); nothing of the set-up may.
        private static func writeFile(_ path: String, _ text: String) throws {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard close(descriptor) == 0, written == bytes.count, chmod(path, 0o600) == 0 else {
                throw POSIXError(.EIO)
            }
        }
    }

    extension BuiltExecutable.Result {
        /// Expects the command to have refused: exit status 1, and `message` in its standard
        /// error, which a failure shows (after `label`).
        func expectRefusal(
            saying message: String, label: String = "", sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(status == 1, "\(label)\(errors)", sourceLocation: sourceLocation)
            #expect(errors.contains(message), "\(label)\(errors)", sourceLocation: sourceLocation)
        }
    }
#endif
