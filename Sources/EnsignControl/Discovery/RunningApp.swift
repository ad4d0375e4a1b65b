import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An app with a live control socket in a runtime directory.
public struct RunningApp: Sendable, Hashable, CustomStringConvertible {
    /// The name the app gave its control server.
    public var name: String
    /// The app's process identifier.
    public var pid: Int32
    /// The socket to connect to.
    public var socketPath: String

    /// Creates a description of a running app.
    public init(name: String, pid: Int32, socketPath: String) {
        self.name = name
        self.pid = pid
        self.socketPath = socketPath
    }

    /// `demo (pid 4242)`.
    public var description: String { "\(name) (pid \(pid))" }

    /// The apps with a live control socket in `directory`, sorted by name and pid.
    ///
    /// Sockets named `<app>.<pid>.sock` are tried one by one: a socket that accepts a
    /// connection is live; one that refuses it (its process died without removing it) is
    /// stale and removed. A missing directory has no apps. This connects to every socket,
    /// so it costs one round trip per app.
    public static func all(in directory: String = ControlRuntimeDirectory.defaultPath) throws(RuntimeDirectoryError)
        -> [RunningApp]
    {
        var info = stat()
        guard lstat(directory, &info) == 0 else { return [] }
        try ControlRuntimeDirectory.check(directory)
        var apps: [RunningApp] = []
        for name in entries(of: directory) {
            guard let (app, pid) = parseSocketName(name) else { continue }
            let path = directory + "/" + name
            switch probe(path) {
            case .live: apps.append(RunningApp(name: app, pid: pid, socketPath: path))
            case .stale: removeStaleSocket(at: path)
            case .unknown: break
            }
        }
        return apps.sorted { ($0.name, $0.pid) < ($1.name, $1.pid) }
    }

    /// `<app>.<pid>.sock`.
    static func socketName(app: String, pid: Int32) -> String { "\(app).\(pid).sock" }

    /// The app name and pid of a socket file name, or `nil` for other files.
    static func parseSocketName(_ name: String) -> (app: String, pid: Int32)? {
        guard name.hasSuffix(".sock") else { return nil }
        let stem = name.dropLast(5)
        guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else {
            return nil
        }
        let app = String(stem[..<dot])
        return app.isEmpty ? nil : (app, pid)
    }

    enum Liveness {
        case live, stale, unknown
    }

    /// Whether a server listens on `path`: a refused connection means its process is gone.
    static func probe(_ path: String) -> Liveness {
        do {
            let descriptor = try UnixSocket.connect(to: path)
            _ = systemClose(descriptor)
            return .live
        } catch {
            return error.code == ECONNREFUSED ? .stale : .unknown
        }
    }

    /// Removes `path` if it is a socket (never another kind of file).
    @discardableResult
    static func removeStaleSocket(at path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return false }
        return unlink(path) == 0
    }

    private static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        return names
    }
}
