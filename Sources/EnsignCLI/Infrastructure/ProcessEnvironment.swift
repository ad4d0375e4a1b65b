#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables, read in one place so commands need no C import.
enum ProcessEnvironment {
    /// The value of the variable `name`, or `nil` when it is not set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
