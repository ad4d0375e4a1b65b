import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign

/// Random sequences of everything that happens to a running app — writes of every layer,
/// children and scopes, observers, edits of every file (broken, emptied, deleted ones too),
/// reloads, restarts — run on a real context and on ``ReferenceModel`` side by side.
///
/// A failure names its seed and a shrunk sequence that still fails. Replay or explore with
/// `ENSIGN_MODEL_SEED=<seed>` (one sequence) or `ENSIGN_MODEL_SEQUENCES=<count>` and
/// `ENSIGN_MODEL_FIRST_SEED=<seed>` (more sequences, other seeds).
@Suite("Model-based: a real context agrees with the reference model step by step")
struct ModelBasedTests {
    static let operationsPerSequence = 50

    /// 2,000 sequences in a normal build; fewer under a sanitizer, which runs them ten times slower.
    static var sequenceCount: Int {
        if let count = ProcessInfo.processInfo.environment["ENSIGN_MODEL_SEQUENCES"].flatMap(Int.init) { return count }
        return SanitizerCheck.isSanitized ? 200 : 2_000
    }

    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["ENSIGN_MODEL_SEED"].flatMap(UInt64.init) { return [seed] }
        let first = environment["ENSIGN_MODEL_FIRST_SEED"].flatMap(UInt64.init) ?? 1
        return (0..<UInt64(sequenceCount)).map { first + $0 }
    }

    @Test("Random sequences of 50 operations agree with the model after every step", .blocksItsThread)
    func randomSequences() {
        let start = ContinuousClock.now
        var failures: [String] = []
        var operationsRun = 0
        for seed in Self.seeds {
            let run = Self.sequence(seed: seed)
            operationsRun += run.operations.count
            guard let failure = run.run() else { continue }
            let shrunk = ModelShrinker.shrink(run, failure: failure)
            failures.append(Self.report(seed: seed, shrunk: shrunk))
            if failures.count == 3 { break }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        print(
            "model-based: \(Self.seeds.count) sequences, \(operationsRun) operations in \(elapsed)"
                + " (\(Int(Double(operationsRun) / max(seconds, 0.001))) operations per second)")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// The sequence a seed makes: the files it starts from and its operations.
    static func sequence(seed: UInt64) -> ModelRun {
        var generator = ModelOperationGenerator(random: SplitMix64(seed: seed))
        let valid: [OverlayVersion] = [.sizeAndMode, .flagsAndLanguage, .targetAndDark]
        let initial = ModelDisk(
            definitions: .base, environment: valid[Int(generator.random.next(below: 3))],
            deployments: (0..<ModelOperationGenerator.deploymentCount).map { _ in
                valid[Int(generator.random.next(below: 3))]
            })
        return ModelRun(initial: initial, operations: (0..<operationsPerSequence).map { _ in generator.next() })
    }

    static func report(seed: UInt64, shrunk: (run: ModelRun, failure: ModelRun.Failure)) -> String {
        let steps = shrunk.run.operations.enumerated().map { "  \($0.offset): \($0.element)" }
        return """
            seed \(seed) fails (replay: ENSIGN_MODEL_SEED=\(seed)); shrunk to \(steps.count) steps from files \
            \(shrunk.run.initial.definitions), environment \(shrunk.run.initial.environment), deployments \
            \(shrunk.run.initial.deployments):
            \(steps.joined(separator: "\n"))
            \(shrunk.failure)
            """
    }
}

/// Makes a failing sequence shorter while it still fails: drops chunks of steps, halving the
/// chunk size until single steps, within a bounded number of replays.
enum ModelShrinker {
    static func shrink(_ run: ModelRun, failure first: ModelRun.Failure, maximumReplays: Int = 400)
        -> (ModelRun, ModelRun.Failure)
    {
        var operations = Array(run.operations.prefix(first.step + 1))
        // A failure that does not come back on replay depends on timing: report it as it was.
        guard var failure = ModelRun(initial: run.initial, operations: operations).run() else {
            var unrepeated = first
            unrepeated.message += " (this did not fail again when replayed: it depends on timing)"
            return (run, unrepeated)
        }
        var replays = 0
        var chunk = max(1, operations.count / 2)
        while replays < maximumReplays {
            var index = 0
            var removedAny = false
            while index < operations.count, replays < maximumReplays {
                var candidate = operations
                candidate.removeSubrange(index..<min(index + chunk, candidate.count))
                replays += 1
                if let smaller = ModelRun(initial: run.initial, operations: candidate).run() {
                    operations = Array(candidate.prefix(smaller.step + 1))
                    failure = smaller
                    removedAny = true
                } else {
                    index += chunk
                }
            }
            if !removedAny {
                guard chunk > 1 else { break }
                chunk /= 2
            }
        }
        return (ModelRun(initial: run.initial, operations: operations), failure)
    }
}

/// Whether this process runs under a sanitizer (their runtimes export these symbols).
enum SanitizerCheck {
    static let isSanitized: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
    }()
}
