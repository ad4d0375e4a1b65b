import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long-running commands end on Ctrl-C or SIGTERM: `watch` by a flag it looks at,
/// `demo` by waiting for the signal.
enum Interruption {
    private static let flag = Atomic<Bool>(false)

    /// Whether SIGINT or SIGTERM arrived since `install()`.
    static var hasOccurred: Bool { flag.load(ordering: .relaxed) }

    /// Makes `SIGINT` and `SIGTERM` set a flag instead of killing the process, so `watch` can
    /// end cleanly with exit status 0. The handler is installed without `SA_RESTART`, so a wait
    /// on the thread that receives the signal returns at once; `watch` also wakes every 250 ms
    /// to look at the flag, since the signal may go to another thread.
    static func install() {
        var action = sigaction()
        #if os(Linux)
            action.__sigaction_handler.sa_handler = { _ in Interruption.flag.store(true, ordering: .relaxed) }
        #else
            action.__sigaction_u.__sa_handler = { _ in Interruption.flag.store(true, ordering: .relaxed) }
        #endif
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started this process with the signals blocked (some process
        // launchers pass their own mask on); unblock them, or Ctrl-C would never arrive.
        var signals = terminationSignals
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Blocks SIGINT and SIGTERM on the calling thread, so that the threads it starts next
    /// (which inherit the mask) never take them: then ``waitForTermination()`` receives them,
    /// whichever thread the system picks.
    static func blockTerminationSignals() {
        var signals = terminationSignals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Blocks the calling thread until SIGINT or SIGTERM (`demo`, whose observers keep running
    /// on their own threads meanwhile). The signals are blocked on this thread first, as
    /// `sigwait` requires.
    static func waitForTermination() {
        var signals = terminationSignals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var received: Int32 = 0
        sigwait(&signals, &received)
    }

    /// SIGINT and SIGTERM, the signals that end a long-running command.
    private static var terminationSignals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
