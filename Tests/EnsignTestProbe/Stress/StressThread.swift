import Foundation

/// A named thread that runs one stress role and can be waited for.
///
/// Named, so a debugger's stack dump says which role each thread plays (`writer-w0`,
/// `reader-1`); Linux keeps the first 15 bytes of a name.
final class StressThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread called `name`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            Self.nameCurrentThread(name)
            body()
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until the body has returned.
    func join() {
        finished.wait()
    }

    /// Names the calling thread where debuggers look (`Thread.name` does not, on Linux).
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            try? String(name.utf8.prefix(15))!.write(
                toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
    }
}

/// Unblocks the signals a stalled run is stopped with (SIGABRT, SIGQUIT), so the Swift
/// runtime's backtracer can answer them.
///
/// A process started through Foundation's `Process` inherits the signal mask of the thread
/// that started it, and the test runner's threads block them.
func unblockFatalSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGABRT)
    sigaddset(&signals, SIGQUIT)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}
