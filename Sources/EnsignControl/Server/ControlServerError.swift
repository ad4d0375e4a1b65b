/// Why a control server could not start. Nothing is left behind when start fails.
public enum ControlServerError: Error, Sendable, Hashable {
    /// The app name cannot be part of a socket name.
    case invalidAppName(String)
    /// The runtime directory is not private to this user.
    case runtimeDirectory(RuntimeDirectoryError)
    /// The socket path is longer than Unix sockets allow.
    case socketPathTooLong(path: String, limit: Int)
    /// A live server already listens on the path.
    case socketInUse(path: String)
    /// Something other than a socket is at the path; it is left alone.
    case pathOccupied(path: String)
    /// A system call failed.
    case systemCall(String)
}

extension ControlServerError: CustomStringConvertible {
    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .invalidAppName(let name):
            return "the app name '\(name)' cannot name a socket; use 1 to 64 letters, digits, '-', '_' or '.'"
                + " (not starting with '.')"
        case .runtimeDirectory(let error):
            return error.description
        case .socketPathTooLong(let path, let limit):
            return "the socket path \(path) is \(path.utf8.count) bytes; Unix sockets allow \(limit);"
                + " set ENSIGN_RUNTIME_DIR (or ControlServerOptions.runtimeDirectory) to a shorter directory"
        case .socketInUse(let path):
            return "another server is listening on \(path); give this one another appName or socketPath"
        case .pathOccupied(let path):
            return "\(path) exists and is not a socket; remove it or choose another socketPath"
        case .systemCall(let message):
            return "the control server could not start: \(message)"
        }
    }
}
