#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A dedicated POSIX thread that runs one closure and can be joined, so that stopping the
/// server provably leaves no thread behind.
final class ControlThread: @unchecked Sendable {
    // @unchecked Sendable, proven: `thread` is written once in init, before the instance is
    // shared, and only read afterwards (by `join` and `isCurrent`).
    private var thread: pthread_t

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread named `name` (at most 15 bytes on Linux) running `body`.
    init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(
            Body {
                ControlThread.nameCurrentThread(name)
                body()
            }
        ).toOpaque()
        #if os(Linux)
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
        #else
            var thread: pthread_t?
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
        #endif
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemCallError("pthread_create", code: result)
        }
        #if os(Linux)
            self.thread = thread
        #else
            self.thread = thread!
        #endif
    }

    /// Names the calling thread, for debuggers and `top -H`.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            // Glibc's Swift module lacks pthread_setname_np (a GNU extension); procfs does the same.
            let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            _ = systemClose(descriptor)
        #else
            _ = pthread_setname_np(name)
        #endif
    }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Waits for the thread to finish. Call it once, from another thread.
    func join() {
        _ = pthread_join(thread, nil)
    }

    /// Lets the thread finish on its own (for a thread that stops itself).
    func detach() {
        _ = pthread_detach(thread)
    }
}
