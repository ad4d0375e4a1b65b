import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign
@testable import EnsignYAML

/// The three threads that take rules from a ``RuleCompilationPipeline`` race: the reading
/// thread (its overflow past the backlog limit), the background thread, and the parsing
/// thread's idle work. Whoever takes a rule, every rule ends compiled once, from its own tree,
/// with its tree released.
@Suite("Rule compilation: three takers racing")
struct RuleCompilationRaceTests {
    /// The rule of flag `index`: `on` for its own country only, so a result compiled from
    /// another flag's tree shows.
    static func rule(_ index: Int) throws -> YAMLNode {
        try TargetingHandoffTests.rule("if: [{ in: [{ var: country }, [C\(index)]] }, on, off]")
    }

    @Test(
        "Submitting, idle work on another thread and the background thread, at random speeds: every rule is compiled from its own tree",
        .blocksItsThread)
    func takersRace() throws {
        var random = SplitMix64(seed: 0x5EED_0016)
        let nodes = try (0..<300).map(Self.rule)
        var idleCompiles = 0
        for round in 0..<60 {
            let count = 20 + Int(random.next(below: 280))
            let definitions = (0..<count).map { TargetingHandoffTests.flag("f\($0)", targeting: nodes[$0]) }
            let pipeline = RuleCompilationPipeline(options: TargetingOptions())
            let pauseEvery = 1 + Int(random.next(below: 8))
            var idle: IdleTaker?
            for (index, definition) in definitions.enumerated() {
                pipeline.submit(definition)
                #expect(pipeline.backlog <= RuleCompilationPipeline.maximumBacklog)
                // The submitting side sometimes pauses, as a reader waiting for a batch would.
                if random.next(below: 16) == 0 { Thread.sleep(forTimeInterval: 0.000_05) }
                if index == count / 2 { idle = IdleTaker(work: pipeline.idleWork, pauseEvery: pauseEvery) }
            }
            // As in a load: the parser (and its idle work) has stopped before the loader finishes.
            idleCompiles += idle?.stop() ?? 0
            pipeline.finish()
            for (index, definition) in definitions.enumerated() {
                let rule = try #require(definition.compiledTargeting, "round \(round): f\(index) was never compiled")
                #expect(rule.evaluate(context: ["country": .string("C\(index)")], flagKey: definition.key) == "on")
                #expect(rule.evaluate(context: ["country": .string("C\(index + 1)")], flagKey: definition.key) == "off")
                #expect(definition.claimTargetingTree() == nil, "round \(round): f\(index)'s tree is still held")
            }
            #expect(pipeline.backlog == 0)
        }
        // The race is real only if the idle work took some rules.
        #expect(idleCompiles > 0)
    }
}

/// A thread standing in for the parsing thread: runs `work` in a loop, as the parser does
/// while it is a ring ahead of the reader, yielding every `pauseEvery` rules, until stopped.
private final class IdleTaker: Sendable {
    private let stopping = SharedFlag()
    private let taken = Recorder<Int>()
    private let thread: JoinableThread

    /// Starts the thread.
    init(work: IdleWork, pauseEvery: Int) {
        let stopping = stopping
        let taken = taken
        thread = JoinableThread(name: "idle-taker") {
            var count = 0
            while !stopping.isSet {
                if work.run() {
                    count += 1
                    if count % pauseEvery == 0 { sched_yield() }
                } else {
                    sched_yield()
                }
            }
            taken.record(count)
        }
    }

    /// Stops the thread and waits for it; returns how many rules it compiled.
    func stop() -> Int {
        stopping.set()
        thread.join()
        return taken.values.reduce(0, +)
    }
}
