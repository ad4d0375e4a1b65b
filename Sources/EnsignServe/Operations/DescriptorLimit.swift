#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors, which bounds how many connections a server can hold.
enum DescriptorLimit {
    /// The soft limit in force and the hard limit above it.
    static var current: (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else { return (1024, 1024) }
        return (clamp(limit.rlim_cur), clamp(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as Go's runtime does at start; returns the limits
    /// in force afterwards. An unlimited hard limit raises the soft one to 1,048,576 (Linux's
    /// usual ceiling, `fs.nr_open`); when the system refuses, the soft limit stays as it was.
    @discardableResult
    static func raiseToHardLimit() -> (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else { return current }
        let target = min(limit.rlim_max, rlim_t(ceiling))
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(resourceNumber, &limit)
        }
        return current
    }

    private static let ceiling = 1 << 20

    private static func clamp(_ value: rlim_t) -> Int {
        value == rlim_t.max || value > rlim_t(ceiling) ? ceiling : Int(value)
    }

    #if os(Linux)
        private static let resourceNumber = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceNumber = RLIMIT_NOFILE
    #endif
}
