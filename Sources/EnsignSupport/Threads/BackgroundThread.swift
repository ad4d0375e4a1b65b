#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A joinable thread that runs one closure at background priority: it gets a core only when
/// the threads doing the caller's own work leave one free.
///
/// For work that overlaps with a load but is not on its critical path (compiling targeting
/// rules while the file is still parsed and read). With three busy threads on two cores, an
/// equal share made the reading thread, which the load waits for, run at two thirds of a
/// core: the rules then cost the load as much time as compiling them took. On Linux the thread
/// runs under `SCHED_IDLE`; on Apple platforms at the utility quality of service. A thread of
/// its own (a ``JoinableThread``), not one of Dispatch's pool, because a pool thread would keep
/// the lowered priority for whatever runs on it next.
package final class BackgroundThread: Sendable {
    private let thread: JoinableThread

    /// Starts a thread named `name` running `body` at background priority.
    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        thread = JoinableThread(name: name) {
            BackgroundThread.lowerCurrentPriority()
            body()
        }
    }

    /// Waits for the thread to end. Call it once.
    package func join() { thread.join() }

    #if os(Linux)
        /// `SCHED_IDLE` from `<sched.h>`, which Swift's Glibc module leaves out (it is behind
        /// `_GNU_SOURCE`); the value is Linux's ABI.
        private static let schedulingPolicyIdle: Int32 = 5
    #endif

    /// Whether the calling thread runs at the priority a background thread lowers itself to.
    package static var isCurrentLowered: Bool {
        #if os(Linux)
            var policy: Int32 = 0
            var parameters = sched_param()
            return pthread_getschedparam(pthread_self(), &policy, &parameters) == 0 && policy == schedulingPolicyIdle
        #elseif canImport(Darwin)
            return qos_class_self() == QOS_CLASS_UTILITY
        #else
            return false
        #endif
    }

    /// Lowers the calling thread's scheduling priority; a thread may always lower its own, and
    /// if the system refuses, the work runs at normal priority, only slower to share.
    private static func lowerCurrentPriority() {
        #if os(Linux)
            var parameters = sched_param()
            parameters.sched_priority = 0
            _ = pthread_setschedparam(pthread_self(), schedulingPolicyIdle, &parameters)
        #elseif canImport(Darwin)
            _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
