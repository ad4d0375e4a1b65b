#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A dedicated, joinable thread for work that blocks (a watch stream's reads), so it never
/// occupies a thread of Swift's cooperative pool, and so stopping can wait for it to end.
package final class WorkerThread: Sendable {
    // The thread's handle, written once in init before any other thread can see `self`.
    private let handle: ThreadHandle

    /// Starts `body` on a new thread named `name` (on Linux, the first 15 bytes), so it is
    /// recognisable in debuggers and `/proc`.
    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
        #if os(Linux)
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { WorkerThread.enter($0) }, box)
        #else
            var thread: pthread_t?
            let result = pthread_create(&thread, nil, { WorkerThread.enter($0) }, box)
        #endif
        precondition(result == 0, "pthread_create failed: \(result)")
        handle = ThreadHandle(thread: thread)
    }

    private static func enter(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        let work = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
        #if canImport(Darwin)
            _ = pthread_setname_np(work.name)
        #else
            nameCurrentThread(work.name)
        #endif
        work.body()
        return nil
    }

    /// Whether the caller is this thread.
    package var isCurrent: Bool {
        #if os(Linux)
            pthread_equal(pthread_self(), handle.thread) != 0
        #else
            pthread_equal(pthread_self(), handle.thread!) != 0
        #endif
    }

    /// Waits until the thread has finished. From the thread itself, detaches it instead
    /// (it finishes on its own once its body returns).
    package func join() {
        #if os(Linux)
            let thread = handle.thread
        #else
            let thread = handle.thread!
        #endif
        if isCurrent {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }
}

/// A pthread handle, immutable once created.
private struct ThreadHandle: @unchecked Sendable {
    // @unchecked Sendable: a pthread_t is an identifier (an integer on Linux, an opaque
    // pointer on Apple platforms) that the pthread API allows any thread to pass to
    // pthread_join and pthread_equal; it is never dereferenced here.
    #if os(Linux)
        let thread: pthread_t
    #else
        let thread: pthread_t?
    #endif
}

/// What a new thread runs, handed over through pthread_create's argument.
private final class ThreadBody: Sendable {
    let name: String
    let body: @Sendable () -> Void

    package init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

#if os(Linux)
    /// Names the calling thread through `/proc/thread-self/comm` (Glibc's module does not
    /// export `pthread_setname_np`).
    private func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
#endif
