import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Testing

@testable import Ensign
@testable import EnsignYAML

/// Loading a large file on two threads (libyaml parsing ahead, rules compiled as they are
/// read) must give exactly what loading it on one thread gives: definitions, compiled rules,
/// problems and their order.
@Suite("Loading on two threads")
struct ParallelLoadingTests {
    /// About 300 KB: rules with and without `$ref` (to evaluators defined after the flags), broken
    /// rules, rules returning non-variants, `targeting: {}`, a key defined again in a second document, and a namespace
    /// after the flags (which makes the loader read the file a second time).
    static func largeFile(flags: Int) -> String {
        var text = "version: 1\nflags:\n"
        for index in 0..<flags {
            let key = "area\(index / 50).flag\(index)"
            switch index % 6 {
            case 0:
                text +=
                    "  \(key): { type: int, default: \(index % 90 + 5), minimum: 1, description: Limit \(index). }\n"
            case 1:
                text += "  \(key):\n    variants: { \"on\": true, \"off\": false }\n    defaultVariant: \"off\"\n"
                text +=
                    "    targeting: { if: [{ in: [{ var: country }, [FR, BE]] }, { fractional: [[\"on\", \(index % 100)], [\"off\", \(100 - index % 100)]] }, \"off\"] }\n"
            case 2:
                text += "  \(key):\n    variants: { \"on\": true, \"off\": false }\n    defaultVariant: \"off\"\n"
                text += "    targeting: { if: [{ $ref: staff }, \"on\", \"off\"] }\n"
            case 3:
                text += "  \(key):\n    variants: { \"on\": true, \"off\": false }\n    defaultVariant: \"off\"\n"
                text += "    targeting: { \(index % 12 == 3 ? "bogus" : "if"): [{ var: plan }, \"maybe\", \"off\"] }\n"
            case 4:
                text += "  \(key): { default: true, targeting: {} }\n"
            default:
                text += "  \(key): { type: string, enum: [a, b], default: a, environments: { development: b } }\n"
            }
        }
        text += "namespace: big\n$evaluators:\n  staff: { ends_with: [{ var: email }, \"@x.example\"] }\n"
        // A second document defines a key again.
        text += "---\nversion: 1\nnamespace: big\nflags:\n  area0.flag0: { default: 1 }\n"
        return text
    }

    static func load(_ text: String, threshold: Int) -> DefinitionLoadResult {
        var loader = DefinitionLoader(today: CalendarDay("2026-12-01")!)
        loader.parallelThreshold = threshold
        return loader.loadDefinitions(from: [ConfigSource(name: "big.yaml", bytes: Array(text.utf8))])
    }

    @Test("A large file loads the same on two threads as on one", .blocksItsThread)
    func sameResult() {
        let text = Self.largeFile(flags: 3_000)
        #expect(text.utf8.count > YAMLParser.defaultPrefetchThreshold)
        let serial = Self.load(text, threshold: .max)
        let parallel = Self.load(text, threshold: 0)
        #expect(serial.definitions.count == 3_000, "\(serial.diagnostics.prefix(3))")
        #expect(parallel.definitions.keys == serial.definitions.keys)
        #expect(parallel.diagnostics.map(\.description) == serial.diagnostics.map(\.description))
        #expect(parallel.flagErrors.map(\.description) == serial.flagErrors.map(\.description))
        #expect(serial.diagnostics.contains { $0.message.contains("defined twice") })
        #expect(serial.flagErrors.contains { $0.message.contains("unknown operator 'bogus'") })
        let contexts: [EvaluationContext] = [
            ["targetingKey": "u-1", "country": "FR", "email": "a@x.example", "plan": "pro"],
            ["targetingKey": "u-2", "country": "DE", "email": "b@y.example"],
        ]
        for (left, right) in zip(serial.definitions.orderedDefinitions, parallel.definitions.orderedDefinitions) {
            #expect(left.key == right.key)
            #expect(left.targetingProblem == right.targetingProblem, "\(left.key)")
            #expect(left.targeting == right.targeting, "\(left.key)")
            #expect(left.targetingLocation == right.targetingLocation, "\(left.key)")
            for context in contexts {
                #expect(
                    left.compiledTargeting?.evaluate(context: context, flagKey: left.key)
                        == right.compiledTargeting?.evaluate(context: context, flagKey: right.key), "\(left.key)")
            }
        }
    }

    @Test("While a large file is read, each rule without $ref is compiled and its YAML released")
    func rulesCompiledWhileReading() throws {
        var loader = DefinitionLoader(today: CalendarDay("2026-12-01")!)
        loader.parallelThreshold = 0
        let file = try loader.readFile(ConfigSource(name: "big.yaml", bytes: Array(Self.largeFile(flags: 600).utf8)))
        let pipeline = try #require(file.pipeline, "a file this large compiles its rules on a background thread")
        pipeline.finish()  // what loading the file does first
        let definitions = file.documents.flatMap(\.definitions)
        var compiled = 0
        var leftForEvaluators = 0
        for definition in definitions where definition.hasTargeting {
            let index = Int(definition.key.split(separator: "flag").last ?? "")
            if index.map({ $0 % 6 == 2 }) == true {  // `$ref: staff`: compiled once the evaluators are known
                #expect(definition.targetingCompilation == nil, "\(definition.key)")
                #expect(definition.claimTargetingTree() != nil, "\(definition.key)")
                leftForEvaluators += 1
            } else {
                #expect(definition.targetingCompilation != nil, "\(definition.key)")
                #expect(definition.claimTargetingTree() == nil, "\(definition.key): its tree is still held")
                compiled += 1
            }
        }
        #expect(leftForEvaluators == 100)
        #expect(compiled == 300)
    }

    @Test("However slow the background thread, no more than the backlog limit of rules wait, and all compile")
    func backlogBounded() throws {
        let node = try TargetingHandoffTests.rule(
            "if: [{ in: [{ var: country }, [FR, BE]] }, { fractional: [[a, 50], [b, 50]] }, c]")
        let pipeline = RuleCompilationPipeline(options: TargetingOptions())
        var definitions: [FlagDefinition] = []
        var largest = 0
        for index in 0..<400 {
            let definition = TargetingHandoffTests.flag("f\(index)", targeting: node)
            definitions.append(definition)
            pipeline.submit(definition)
            largest = max(largest, pipeline.backlog)
        }
        #expect(largest <= RuleCompilationPipeline.maximumBacklog)
        // A limit at or below a batch would keep every rule on this thread.
        #expect(RuleCompilationPipeline.maximumBacklog > RuleCompilationPipeline.batchSize)
        #expect(pipeline.isThreadRunning, "a batch was released to the background thread")
        pipeline.finish()
        for definition in definitions {
            #expect(definition.targetingCompilation?.rule != nil, "\(definition.key)")
            #expect(definition.claimTargetingTree() == nil, "\(definition.key): its tree is still held")
        }
    }

    @Test("The parser's idle work compiles the oldest queued rule, released or not, each once")
    func idleWorkCompilesQueuedRules() throws {
        let node = try TargetingHandoffTests.rule("if: [{ in: [{ var: country }, [FR, BE]] }, on, off]")
        let pipeline = RuleCompilationPipeline(options: TargetingOptions())
        // Fewer than a batch: nothing is released to the background thread, so it never starts.
        let count = RuleCompilationPipeline.batchSize - 1
        let definitions = (0..<count).map { TargetingHandoffTests.flag("f\($0)", targeting: node) }
        for definition in definitions { pipeline.submit(definition) }
        #expect(!pipeline.isThreadRunning)
        for (index, definition) in definitions.enumerated() {
            #expect(pipeline.idleWork.run(), "rule \(index) was queued")
            #expect(definition.targetingCompilation?.rule != nil, "\(definition.key) compiled")
            #expect(definitions[(index + 1)...].allSatisfy { $0.targetingCompilation == nil }, "in queue order")
        }
        #expect(!pipeline.idleWork.run(), "nothing left to do")
        #expect(pipeline.backlog == 0)
        pipeline.finish()
        #expect(definitions.allSatisfy { $0.claimTargetingTree() == nil })
    }

    @Test("A large file refused for a syntax error stops its rule-compiling thread", .blocksItsThread)
    func refusedFileStopsItsThread() {
        // The error comes after hundreds of rules were queued, so the thread is running.
        let text = Self.largeFile(flags: 1_200) + "flags: [unclosed\n"
        for _ in 0..<20 {
            let result = Self.load(text, threshold: 0)
            #expect(result.definitions.count == 0)
            #expect(result.diagnostics.contains { $0.severity == .error }, "\(result.diagnostics.prefix(2))")
        }
        // A load that left its thread waiting would leave 20 here; other tests' loads, running
        // in parallel, may hold a few for a moment.
        #expect(JoinableThread.runningCount(named: "ensign-rules") <= 8, "each load ended its thread")
    }

    @Test("Files of every size around the threshold load the same on two threads as on one", arguments: [1, 40, 400])
    func smallAndLarge(flags: Int) {
        let text = Self.largeFile(flags: flags)
        let serial = Self.load(text, threshold: .max)
        let parallel = Self.load(text, threshold: 0)
        #expect(parallel.definitions.keys == serial.definitions.keys)
        #expect(parallel.diagnostics.map(\.description) == serial.diagnostics.map(\.description))
    }
}
