/// Why a control client could not do what was asked.
public enum ControlClientError: Error, Sendable, Hashable {
    /// No app has a live control socket in the directory.
    case noRunningApp(directory: String)
    /// No running app has this name (the apps that do run are listed).
    case appNotRunning(name: String, directory: String, running: [RunningApp])
    /// Several apps match; pick one with a socket path or an app name.
    case ambiguousTarget([RunningApp])
    /// The runtime directory is not private to this user.
    case runtimeDirectory(RuntimeDirectoryError)
    /// The socket could not be connected to.
    case cannotConnect(path: String, reason: String)
    /// The socket is not one this client trusts: another user could have put it there, or
    /// the process answering on it is not its owner (see the debug CLI article).
    case untrustedServer(path: String, reason: String)
    /// The server refused the request.
    case refused(ControlError)
    /// The connection ended (the app stopped, or closed the connection).
    case disconnected(String)
    /// No reply came in time.
    case timedOut(Duration)
    /// The server sent something this client does not understand.
    case protocolViolation(String)

    /// Whether this is a mistake in how the target was chosen (a usage error for a CLI).
    public var isTargetAmbiguous: Bool {
        if case .ambiguousTarget = self { return true }
        return false
    }
}

extension ControlClientError: CustomStringConvertible {
    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .noRunningApp(let directory):
            return "no running app with a control socket in \(directory); start one with `ensign demo`"
                + " or enable ControlServer in your app"
        case .appNotRunning(let name, let directory, let running):
            let others = running.isEmpty ? "none is running" : "running: " + Self.list(running)
            return "no app named '\(name)' has a control socket in \(directory) (\(others))"
        case .ambiguousTarget(let apps):
            return "several apps are running: \(Self.list(apps)); choose one with --app NAME or --socket PATH"
        case .runtimeDirectory(let error):
            return error.description
        case .cannotConnect(let path, let reason):
            return "cannot connect to \(path): \(reason)"
        case .untrustedServer(let path, let reason):
            return "refusing to talk to \(path): \(reason)"
        case .refused(let error):
            return error.message
        case .disconnected(let detail):
            return "the app closed the connection (\(detail))"
        case .timedOut(let timeout):
            return "the app did not answer within \(timeout)"
        case .protocolViolation(let detail):
            return "the app sent an unexpected reply: \(detail)"
        }
    }

    private static func list(_ apps: [RunningApp]) -> String {
        apps.map { "\($0.name) (pid \($0.pid), \($0.socketPath))" }.joined(separator: ", ")
    }
}
