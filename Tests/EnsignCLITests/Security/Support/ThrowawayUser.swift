#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    /// A system user that exists for one test only, so that the security suite can meet
    /// directories, files and sockets that really belong to someone else, as they would on a
    /// shared machine.
    ///
    /// Created with `useradd` (a system account: no home, no login shell, a group of its own)
    /// under a random name, and removed with `userdel` when released, whether the test passed
    /// or failed. A user (or group) still there after that is reported as an issue of the
    /// test. Needs root; the files the user created must be gone or owned by someone else by
    /// then (``AttackScene`` removes its workspace first), and its processes ended.
    final class ThrowawayUser {
        /// The account's name, `ensign-attacker-<8 hex digits>`.
        let name: String
        let uid: uid_t
        let gid: gid_t

        init() throws {
            let name = "ensign-attacker-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let created = try Self.run(
                "useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name])
            guard created.status == 0 else {
                throw Failure("useradd \(name) failed (exit status \(created.status)): \(created.errors)")
            }
            guard let (uid, gid) = Self.account(named: name) else {
                _ = try? Self.run("userdel", [name])
                throw Failure("useradd created \(name), but the account cannot be found")
            }
            (self.name, self.uid, self.gid) = (name, uid, gid)
        }

        deinit {
            let removed = Result { try Self.run("userdel", [name]) }
            if case .success(let result) = removed, result.status == 0, Self.account(named: name) == nil,
                !Self.groupExists(named: name)
            {
                return
            }
            Issue.record(
                "the throwaway user \(name) could not be removed: \(removed); remove it with `userdel \(name)`")
        }

        /// The uid and primary gid of the account `name`, read with the reentrant call (tests
        /// run in parallel).
        static func account(named name: String) -> (uid_t, gid_t)? {
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: 16_384)
            guard getpwnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
            return (entry.pw_uid, entry.pw_gid)
        }

        static func groupExists(named name: String) -> Bool {
            var entry = group()
            var found: UnsafeMutablePointer<group>?
            var buffer = [CChar](repeating: 0, count: 16_384)
            return getgrnam_r(name, &entry, &buffer, buffer.count, &found) == 0 && found != nil
        }

        /// Runs one of the shadow tools (`useradd`, `userdel`), found in the system directories.
        private static func run(_ tool: String, _ arguments: [String]) throws -> BuiltExecutable.Result {
            let directories = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
            let candidates = directories.map { (directory: String) -> String in directory + "/" + tool }
            guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
                throw Failure("\(tool) is not installed (looked in \(directories.joined(separator: ", ")))")
            }
            return try BuiltExecutable.run(executable: URL(fileURLWithPath: path), arguments, timeout: .seconds(60))
        }

        /// Why the user could not be created.
        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }
    }
#endif
