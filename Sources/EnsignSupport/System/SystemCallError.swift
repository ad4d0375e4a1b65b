#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call failed: which one, on what, and `errno`.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call: `bind`, `connect`, …
    package var call: String
    /// What it was called on, usually a path.
    package var subject: String
    /// The `errno` value.
    package var code: Int32

    package init(_ call: String, _ subject: String = "", code: Int32 = errno) {
        self.call = call
        self.subject = subject
        self.code = code
    }

    /// The system's message for the code: `No such file or directory`.
    package var reason: String { String(cString: strerror(code)) }

    package var description: String {
        subject.isEmpty ? "\(call) failed: \(reason)" : "\(call) \(subject) failed: \(reason)"
    }
}
