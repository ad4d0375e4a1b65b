import EnsignTestSupport
import Foundation
import Testing

/// Runs one stress scenario of `EnsignTestProbe` under the watchdog and turns what it found
/// into test failures: a stall with every thread's stack, each broken promise, a sanitizer
/// report, each with the seed that replays the run's choices.
///
/// `ENSIGN_STRESS_SEED` fixes the seed (a failure prints it); `ENSIGN_STRESS_SECONDS` sets how
/// long the threads run (default 2.5 s).
enum StressHarness {
    /// What a run that finished did (whatever it found).
    struct Figures {
        var threads: Int
        var operations: Int
        var seconds: Double
        /// Operations per thread, by thread name.
        var perThread: [String: Int]
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["ENSIGN_STRESS_SEED"].flatMap { UInt64($0) } ?? .random(in: 1...UInt64.max)
    }

    static var seconds: String { ProcessInfo.processInfo.environment["ENSIGN_STRESS_SECONDS"] ?? "2.5" }

    /// Runs `scenario`, records every failure it found, and returns its figures when it
    /// finished (clean or not).
    @discardableResult
    static func run(_ scenario: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Figures? {
        let seed = seed
        let directory = try TemporaryDirectory()
        let outcome = try StressWatchdog.run(["stress", scenario, "\(seed)", seconds, directory.path])
        let replay = "replay its choices with ENSIGN_STRESS_SEED=\(seed) swift test --filter Stress"
        if !outcome.stalled.isEmpty {
            Issue.record(
                """
                stress '\(scenario)' stalled (seed \(seed); \(replay)): no progress in \
                \(outcome.stalled.joined(separator: ", ")).
                last heartbeat: \(outcome.lastBeat ?? "none")
                every thread's stack:
                \(outcome.stacks)
                standard error (last 4,000 characters):
                \(outcome.errors.suffix(4_000))
                """, sourceLocation: sourceLocation)
            return nil
        }
        let lines = outcome.output.split(separator: "\n").map(String.init)
        let violations = lines.filter { $0.hasPrefix("violation ") }.map { String($0.dropFirst("violation ".count)) }
        let result = lines.last { $0.hasPrefix("result ") } ?? "no result line"
        if outcome.status != 0 {
            Issue.record(
                """
                stress '\(scenario)' failed (seed \(seed); \(replay)): exit status \(outcome.status ?? -1)
                \(result)
                \(violations.map { "- " + $0 }.joined(separator: "\n"))
                standard error (last 8,000 characters; a thread sanitizer report shows here):
                \(outcome.errors.suffix(8_000))
                """, sourceLocation: sourceLocation)
        }
        let figures = parse(result: result, operations: lines.last { $0.hasPrefix("operations ") } ?? "")
        if let figures {
            print(
                "stress \(scenario): seed \(seed), \(figures.threads) threads, \(figures.operations) operations"
                    + " in \(figures.seconds) s (\(lines.last { $0.hasPrefix("operations ") } ?? ""))")
        }
        return figures
    }

    /// The figures of `result key=value …` and `operations name=count …` lines.
    static func parse(result: String, operations: String) -> Figures? {
        func fields(_ line: String) -> [String: String] {
            Dictionary(
                line.split(separator: " ").dropFirst().compactMap { field in
                    field.firstIndex(of: "=").map { (String(field[..<$0]), String(field[field.index(after: $0)...])) }
                }, uniquingKeysWith: { first, _ in first })
        }
        let result = fields(result)
        guard let threads = result["threads"].flatMap(Int.init), let total = result["operations"].flatMap(Int.init),
            let seconds = result["seconds"].flatMap(Double.init)
        else { return nil }
        return Figures(
            threads: threads, operations: total, seconds: seconds,
            perThread: fields(operations).compactMapValues { Int($0) })
    }
}
