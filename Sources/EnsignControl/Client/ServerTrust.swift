#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whom a client talks to: a control socket is trusted only when no other user could have
/// put it there, and the process answering on it is the socket's owner.
///
/// The server checks its clients (only its own user and root get in); this is the other
/// direction, so that `ensign set` never sends a write to, and `ensign get` never shows
/// values from, a socket another user planted (`--socket /tmp/x.sock`, a runtime directory
/// someone else created).
///
/// The rules: the socket is a socket (not a link to one) owned by this user or root (root may
/// address any user's app); its directory is a real directory owned by the socket's owner or
/// root that nobody else can write to; and the server process runs as the socket's owner.
enum ServerTrust {
    /// Checks the socket at `path` before connecting; returns the uid the server must run as.
    static func check(socketAt path: String) throws(ControlClientError) -> uid_t {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            let hint = errno == ENOENT ? "; the app is not running (run `ensign ps` to list running apps)" : ""
            throw .cannotConnect(path: path, reason: reason + hint)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a socket"
            throw .untrustedServer(path: path, reason: "it is \(what); give the app's socket itself")
        }
        let user = geteuid()
        let owner = info.st_uid
        guard owner == user || owner == 0 || user == 0 else {
            throw .untrustedServer(
                path: path, reason: "it belongs to uid \(owner), not to you (uid \(user)) or root")
        }
        do {
            try ControlRuntimeDirectory.checkSocketDirectory(ControlRuntimeDirectory.parent(of: path), owner: owner)
        } catch {
            throw .untrustedServer(path: path, reason: error.description)
        }
        return owner
    }

    /// Checks, once connected, that the server process runs as the socket's owner.
    static func check(server descriptor: Int32, at path: String, expectedOwner: uid_t) throws(ControlClientError) {
        guard let peer = UnixSocket.peerCredentials(of: descriptor) else {
            throw .untrustedServer(path: path, reason: "the server's credentials are unavailable")
        }
        guard peer.uid == expectedOwner else {
            throw .untrustedServer(
                path: path,
                reason: "the process answering runs as uid \(peer.uid), not as the socket's owner uid \(expectedOwner)")
        }
    }
}
