#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line of `EnsignBenchmarks` (and of `scripts/bench`, which passes it through).
struct Options {
    var isQuick = false
    var printsJSON = false
    var filters: [String] = []
    var flagsDirectory: String?
    var rounds: Int?
    /// Internal: measure memory in this (fresh) process for the definitions directory given.
    var memoryProbeDirectory: String?

    static let usage = """
        usage: EnsignBenchmarks [--quick] [--json] [--filter SUBSTRING]... [--rounds N] [--flags DIR]

          --quick             fewer iterations and rounds (a smoke run)
          --json              print one JSON object instead of the table
          --filter SUBSTRING  run only the groups or entries whose name contains SUBSTRING
                              (case-insensitive; repeatable; an entry's reference runs with it)
          --rounds N          timed rounds per entry (default 7, quick 3)
          --flags DIR         the sample definitions directory for the start-up entry
                              (default: ./flags, or ../flags, …, found upwards)

        Times are per operation (min and median of the rounds); ratios are min ÷ the
        reference's min, measured in the same run; targets are checked against minimums;
        allocations are counted by interposing malloc (glibc only).
        """

    enum ParseOutcome {
        case run(Options)
        case help
        case usageError(String)
    }

    static func parse(_ arguments: [String]) -> ParseOutcome {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.isQuick = true
            case "--json": options.printsJSON = true
            case "-h", "--help": return .help
            case "--filter", "--flags", "--rounds", "--memory-probe":
                guard let value = remaining.popFirst() else { return .usageError("\(argument) needs a value") }
                switch argument {
                case "--filter": options.filters.append(value)
                case "--flags": options.flagsDirectory = value
                case "--memory-probe": options.memoryProbeDirectory = value
                default:
                    guard let rounds = Int(value), rounds > 0 else {
                        return .usageError("--rounds needs a positive number, got '\(value)'")
                    }
                    options.rounds = rounds
                }
            default:
                return .usageError("unknown argument '\(argument)'")
            }
        }
        return .run(options)
    }

    /// The sample `flags/` directory: `--flags`, else `flags` in the current directory or the
    /// nearest parent that has one.
    func resolvedFlagsDirectory() -> String? {
        if let flagsDirectory { return Self.isDirectory(flagsDirectory) ? flagsDirectory : nil }
        var candidate = "flags"
        for _ in 0..<6 {
            if Self.isDirectory(candidate) { return candidate }
            candidate = "../" + candidate
        }
        return nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
