import Ensign
import EnsignSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A control server embedded in an app: lets `ensign` (and ``ControlClient``) list, explain,
/// set, toggle, reset and watch the app's flags while it runs.
///
/// Start it after creating the app's root context, typically in debug builds only:
///
/// ```swift
/// import Ensign
/// import EnsignControl
///
/// let context = try AppContext(configuration: .init(definitionsDirectory: "flags"))
/// #if DEBUG
///     let controlServer = try ControlServer.start(context: context, options: .init(appName: "banking"))
/// #endif
/// // From another terminal: ensign toggle beneficiaries.showPendingList
/// ```
///
/// The server listens on a Unix domain socket, `<appName>.<pid>.sock` in the user's runtime
/// directory (see ``ControlRuntimeDirectory``), mode 0600 in a 0700 directory, and serves
/// only processes of the same user or root (checked with `SO_PEERCRED`, or `getpeereid` on
/// Apple platforms; refusals are logged through ``ControlServerOptions/log``). The protocol
/// is described at ``ControlProtocol``.
///
/// It runs on one dedicated thread that `poll`s non-blocking sockets. The app's reads never
/// wait for it; its writes go through the context's public API with the actor `cli`, so the
/// app's observers run as for any other write (on the server thread). A client that stops
/// reading never blocks the app or the other clients: its replies stop being produced and
/// its watch events are dropped (and counted) once its queue is full.
///
/// Writes (`set`, `toggle`, `reset`) are refused in the `production` environment, in any case
/// (`Production` too), unless ``ControlServerOptions/allowsWritesInProduction`` is set.
///
/// ``stop()`` (or releasing the server) closes every connection and descriptor, joins the
/// thread and removes the socket.
public final class ControlServer: Sendable {
    /// The socket the server listens on.
    public let socketPath: String
    /// The options it was started with.
    public let options: ControlServerOptions
    private let core: ServerCore
    private let thread: JoinableThread
    private let isStopped = Atomic<Bool>(false)

    private init(socketPath: String, options: ControlServerOptions, core: ServerCore, thread: JoinableThread) {
        self.socketPath = socketPath
        self.options = options
        self.core = core
        self.thread = thread
    }

    /// Starts serving `context` on a new socket.
    ///
    /// Give it the app's root context: keys are listed and addressed by their full names.
    ///
    /// A socket left at the same path by a process that died is replaced.
    ///
    /// - Throws: ``ControlServerError`` when the app name is unusable, the runtime directory
    ///   is not private, a live server has the path, or a system call fails.
    public static func start(context: AppContext, options: ControlServerOptions) throws(ControlServerError)
        -> ControlServer
    {
        guard isValidAppName(options.appName) else { throw .invalidAppName(options.appName) }
        let path: String
        if let socketPath = options.socketPath {
            path = ControlRuntimeDirectory.normalized(socketPath)
            do {
                try ControlRuntimeDirectory.checkSocketDirectory(
                    ControlRuntimeDirectory.parent(of: path), owner: geteuid())
            } catch {
                throw .runtimeDirectory(error)
            }
        } else {
            let directory = options.runtimeDirectory ?? ControlRuntimeDirectory.defaultPath
            do {
                try ControlRuntimeDirectory.prepare(directory)
            } catch {
                throw .runtimeDirectory(error)
            }
            path = directory + "/" + RunningApp.socketName(app: options.appName, pid: getpid())
        }
        guard path.utf8.count <= UnixSocket.maximumPathLength else {
            throw .socketPathTooLong(path: path, limit: UnixSocket.maximumPathLength)
        }
        try clearPath(path)
        let listener: Int32
        let wake: WakeSignal
        do {
            listener = try UnixSocket.listen(at: path)
        } catch {
            throw .systemCall(error.description)
        }
        do {
            wake = try WakeSignal()
        } catch {
            _ = systemClose(listener)
            _ = unlink(path)
            throw .systemCall(error.description)
        }
        _ = chmod(path, 0o600)
        let core = ServerCore(context: context, options: options, wake: wake)
        let identity = FileIdentity(path: path)
        do {
            let thread = try JoinableThread.start(name: "ensign-control") {
                ServerLoop(core: core, listener: listener, socketPath: path, socketIdentity: identity).run()
            }
            return ControlServer(socketPath: path, options: options, core: core, thread: thread)
        } catch {
            _ = systemClose(listener)
            _ = unlink(path)
            wake.close()
            throw .systemCall(error.description)
        }
    }

    /// Stops serving: closes every connection and descriptor, removes the socket, and waits
    /// for the server thread to end. Later calls do nothing.
    ///
    /// Called from inside an observer that runs on the server thread, it returns at once
    /// and the thread finishes (and cleans up) after the current request.
    public func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.isStopping.store(true, ordering: .releasing)
        core.wake.signal()
        thread.join()  // from the server thread itself, a detach
    }

    /// How many clients are connected now.
    public var connectionCount: Int { core.connectionCount.load(ordering: .relaxed) }

    deinit { stop() }

    static func isValidAppName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }

    /// Removes a stale socket at `path`; refuses when a live server or another kind of file is there.
    private static func clearPath(_ path: String) throws(ControlServerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .pathOccupied(path: path) }
        switch RunningApp.probe(path) {
        case .live: throw .socketInUse(path: path)
        case .stale, .unknown: RunningApp.removeStaleSocket(at: path)
        }
    }
}
