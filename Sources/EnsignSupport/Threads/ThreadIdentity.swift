#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's identity, as a number: what the delivery queue and observer mailboxes
/// compare to tell "called from inside the handler running on this thread" from "called from
/// another thread".
package enum ThreadIdentity {
    /// The calling thread's `pthread_self()`.
    package static var current: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
