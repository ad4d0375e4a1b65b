import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A joinable POSIX thread that runs one closure: libyaml's parsing thread, and Ensign's
/// background thread for compiling rules.
///
/// A thread of its own rather than a Dispatch queue: the work may block while its consumer
/// is behind, which would hold one of Dispatch's pool threads, and a pool keeps its threads
/// after the work ends, so a reader could not show that nothing it started is left running (a
/// serial queue was tried; tests counted the threads it left behind). Lives here, the lowest
/// module, so that every module above can use it.
package final class JoinableThread: @unchecked Sendable {
    // @unchecked Sendable, proven: `handle` is written once in init, before the instance is
    // shared, and only read afterwards by `join`.
    #if os(Linux)
        private var handle = pthread_t()
    #else
        private var handle: pthread_t?
    #endif

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Threads started and not yet at their end, in the whole process: work that forgot to
    /// stop its thread shows here (tests count them; the process's thread count also moves
    /// with every other test's threads).
    package static let running = Atomic<Int>(0)

    /// Starts a thread running `body`.
    package init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        Self.running.add(1, ordering: .relaxed)  // before the thread can count itself out
        let result = pthread_create(
            &handle, nil,
            { context in
                #if os(Linux)
                    Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                #else
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                #endif
                JoinableThread.running.subtract(1, ordering: .relaxed)
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to end. Call it once.
    package func join() {
        #if os(Linux)
            pthread_join(handle, nil)
        #else
            pthread_join(handle!, nil)
        #endif
    }
}
