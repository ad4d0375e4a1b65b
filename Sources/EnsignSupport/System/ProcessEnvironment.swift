#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables, read in one place so callers need no C import.
package enum ProcessEnvironment {
    /// The value of the variable `name`, or `nil` when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The value of the variable `name`, or `nil` when it is not set or empty (an empty
    /// `HOME` or `XDG_RUNTIME_DIR` means "not set", as the XDG base directory specification says).
    package static func nonEmptyValue(_ name: String) -> String? {
        guard let value = value(name), !value.isEmpty else { return nil }
        return value
    }
}
