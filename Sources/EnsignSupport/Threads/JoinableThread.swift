import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A named POSIX thread that runs one closure and can be joined: the package's one thread
/// wrapper (libyaml's parsing thread, the rule compiler's background thread, the control
/// server, the fleet and remote sources' blocking loops, the HTTP server's reaper).
///
/// A thread of its own rather than a Dispatch queue: the work may block (a socket read, a
/// consumer that is behind), which would hold one of Dispatch's or the concurrency runtime's
/// few pool threads, and a pool keeps its threads after the work ends, so an owner could not
/// show that nothing it started is left running (a serial queue was tried; tests counted the
/// threads it left behind).
package final class JoinableThread: Sendable {
    private let handle: ThreadHandle

    /// Threads started and not yet at their end, by name, in the whole process: work that
    /// forgot to stop its thread shows here (tests count them; the process's thread count also
    /// moves with every other test's threads).
    private static let running = LockedState<[String: Int]>([:])

    /// Starts a thread named `name` running `body`; a system that cannot start one more thread
    /// stops the process. Use ``start(name:_:)`` where that failure has a better answer.
    ///
    /// On Linux the name is cut to its first 15 bytes (the kernel's limit); it shows in
    /// debuggers, `top -H` and `/proc/<pid>/task/*/comm`.
    package convenience init(name: String, _ body: @escaping @Sendable () -> Void) {
        switch Self.create(name: name, body) {
        case .success(let handle): self.init(handle: handle)
        case .failure(let error): preconditionFailure(error.description)
        }
    }

    /// Starts a thread named `name` running `body`, or throws when the system refuses one
    /// (`EAGAIN` at the process's thread limit): for servers, whose start should fail cleanly.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError)
        -> JoinableThread
    {
        JoinableThread(handle: try create(name: name, body).get())
    }

    private init(handle: ThreadHandle) {
        self.handle = handle
    }

    /// How many threads named `name` are running now.
    package static func runningCount(named name: String) -> Int {
        running.withLock { $0[name, default: 0] }
    }

    /// Whether the caller runs on this thread.
    package var isCurrent: Bool {
        pthread_equal(pthread_self(), handle.thread) != 0
    }

    /// Waits until the thread has finished. Called from the thread itself, detaches it
    /// instead: it finishes on its own once its body returns. Call `join` or ``detach()`` once.
    package func join() {
        if isCurrent {
            detach()
        } else {
            _ = pthread_join(handle.thread, nil)
        }
    }

    /// Lets the thread finish on its own, for a thread nobody waits for (it stops itself).
    package func detach() {
        _ = pthread_detach(handle.thread)
    }

    private static func create(name: String, _ body: @escaping @Sendable () -> Void) -> Result<
        ThreadHandle, SystemCallError
    > {
        let context = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
        running.withLock { $0[name, default: 0] += 1 }  // before the thread can count itself out
        #if os(Linux)
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { JoinableThread.enter($0!) }, context)
        #else
            var thread: pthread_t?
            let result = pthread_create(&thread, nil, { JoinableThread.enter($0) }, context)
        #endif
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            running.withLock { $0[name, default: 0] -= 1 }
            return .failure(SystemCallError("pthread_create", name, code: result))
        }
        #if os(Linux)
            return .success(ThreadHandle(thread: thread))
        #else
            return .success(ThreadHandle(thread: thread!))
        #endif
    }

    private static func enter(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let work = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
        nameCurrentThread(work.name)
        work.body()
        running.withLock { $0[work.name, default: 0] -= 1 }
        return nil
    }

    /// Names the calling thread.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            // Glibc's Swift module lacks pthread_setname_np (a GNU extension); procfs does the same.
            let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            _ = close(descriptor)
        #else
            _ = pthread_setname_np(name)
        #endif
    }
}

/// A pthread handle, immutable once created.
private struct ThreadHandle: @unchecked Sendable {
    // @unchecked Sendable, proven: a pthread_t is an identifier (an integer on Linux, an opaque
    // pointer on Apple platforms) that the pthread API lets any thread pass to pthread_join,
    // pthread_detach and pthread_equal; it is never dereferenced here.
    let thread: pthread_t
}

/// What a new thread runs, handed over through pthread_create's argument.
private final class ThreadBody: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
