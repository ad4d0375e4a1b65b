/// Which running app a client talks to.
public enum ControlTarget: Sendable, Hashable {
    /// The server listening on this socket path.
    case socket(String)
    /// The one running app with this name.
    case app(String)
    /// The only running app.
    case automatic

    /// The socket path of the target, looking for running apps in `directory` when needed.
    ///
    /// - Throws: ``ControlClientError/noRunningApp(directory:)`` when none runs,
    ///   ``ControlClientError/appNotRunning(name:directory:running:)`` when none has the name,
    ///   ``ControlClientError/ambiguousTarget(_:)`` when several match.
    public func socketPath(in directory: String = ControlRuntimeDirectory.defaultPath) throws(ControlClientError)
        -> String
    {
        if case .socket(let path) = self { return path }
        let running: [RunningApp]
        do {
            running = try RunningApp.all(in: directory)
        } catch {
            throw .runtimeDirectory(error)
        }
        var matches = running
        if case .app(let name) = self {
            matches = running.filter { $0.name == name }
            if matches.isEmpty { throw .appNotRunning(name: name, directory: directory, running: running) }
        }
        guard let first = matches.first else { throw .noRunningApp(directory: directory) }
        guard matches.count == 1 else { throw .ambiguousTarget(matches) }
        return first.socketPath
    }
}
