#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call failed: which one, on what, and `errno`.
struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call: `bind`, `connect`, …
    var call: String
    /// What it was called on, usually a path.
    var subject: String
    /// The `errno` value.
    var code: Int32

    init(_ call: String, _ subject: String = "", code: Int32 = errno) {
        self.call = call
        self.subject = subject
        self.code = code
    }

    /// The system's message for the code: `No such file or directory`.
    var reason: String { String(cString: strerror(code)) }

    var description: String {
        subject.isEmpty ? "\(call) failed: \(reason)" : "\(call) \(subject) failed: \(reason)"
    }
}
