/// How many operations an entry runs in each timed round: a full run's count and a quick one's.
struct Iterations {
    var full: Int
    var quick: Int

    init(full: Int, quick: Int) {
        self.full = full
        self.quick = quick
    }

    func count(quick isQuick: Bool) -> Int { isQuick ? quick : full }
}

/// One timed entry. `body(n)` performs `n` operations; the runner times whole calls and divides,
/// so the per-operation cost excludes the call of `body` itself.
///
/// Build the expensive part of a fixture lazily (``Lazy``) so that a filtered-out entry costs
/// nothing; the runner's warm-up call builds it before anything is timed or counted.
struct Benchmark {
    /// A short identifier: how other entries name this one as their reference.
    var id: String
    /// What the table shows.
    var name: String
    var iterations: Iterations
    /// The `id` of the entry of the same group this one is compared with.
    var reference: String?
    var target: Target?
    var note: String?
    var body: (Int) throws -> Void
    /// Checks after every round has run; returns a description of what went wrong, if anything.
    var verify: (() -> String?)?

    init(
        id: String, name: String, iterations: Iterations, reference: String? = nil, target: Target? = nil,
        note: String? = nil, verify: (() -> String?)? = nil, body: @escaping (Int) throws -> Void
    ) {
        self.id = id
        self.name = name
        self.iterations = iterations
        self.reference = reference
        self.target = target
        self.note = note
        self.verify = verify
        self.body = body
    }
}

/// Entries measured together: timed entries run their rounds interleaved, so a burst of noise
/// on the shared machine hits an entry and its reference alike.
struct BenchmarkGroup {
    enum Kind {
        /// Entries timed by the runner.
        case timed([Benchmark])
        /// Entries that measure themselves (resident memory): names for filtering, and the run.
        case probe(names: [String], run: (RunSettings) throws -> [EntryResult])
    }

    var name: String
    var kind: Kind

    /// A group of entries timed by the runner.
    static func timed(_ name: String, _ benchmarks: [Benchmark]) -> BenchmarkGroup {
        BenchmarkGroup(name: name, kind: .timed(benchmarks))
    }

    /// The names a `--filter` is matched against: the group's and its entries'.
    var searchableNames: [String] {
        switch kind {
        case .timed(let benchmarks): return [name] + benchmarks.flatMap { [$0.id, $0.name] }
        case .probe(let names, _): return [name] + names
        }
    }
}

/// How a run is configured: rounds per entry and whether it is a quick (smoke) run.
struct RunSettings {
    var rounds: Int
    var isQuick: Bool
    var filters: [String]
    /// The sample definitions directory for the start-up entry, when found.
    var flagsDirectory: String?
}

/// A value built on first use and kept: benchmark fixtures that only selected entries pay for.
final class Lazy<Value> {
    private var stored: Value?
    private let make: () throws -> Value

    init(_ make: @escaping () throws -> Value) {
        self.make = make
    }

    var value: Value {
        get throws {
            if let stored { return stored }
            let made = try make()
            stored = made
            return made
        }
    }
}

/// A failure that stops the run: a fixture that cannot be built, or a check that failed.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
