import Testing

@testable import Ensign
@testable import EnsignYAML

/// Compiling targeting rules on two threads must be invisible: the same compiled rules, the
/// same problems in the same order, and a problem in a shared evaluator reported once.
@Suite("Targeting rules compiled on two threads")
struct ParallelRuleCompilationTests {
    /// 80 targeted flags: good rules, rules with an unknown operator, rules whose results are
    /// not variants, and rules that all use one broken shared evaluator.
    static let definitions: String = {
        var text =
            "version: 1\nnamespace: p\n$evaluators:\n  broken: { nope: [1] }\n  staff: { ends_with: [{ var: email }, \"@x.example\"] }\nflags:\n"
        for index in 0..<80 {
            let rule: String
            switch index % 4 {
            case 0:
                rule =
                    "{ if: [{ $ref: staff }, \"on\", { fractional: [[\"on\", \(index)], [\"off\", \(100 - index)]] }] }"
            case 1: rule = "{ bogus\(index % 3): [1] }"
            case 2: rule = "{ if: [{ in: [{ var: country }, [FR]] }, \"maybe\(index % 2)\", \"off\"] }"
            default: rule = "{ if: [{ $ref: broken }, \"on\", \"off\"] }"
            }
            text += "  f\(index):\n    variants: { \"on\": true, \"off\": false }\n    defaultVariant: \"off\"\n"
            text += "    targeting: \(rule)\n"
        }
        return text
    }()

    /// The definitions as the loader collects them, before their rules are compiled.
    static func collected() throws -> DefinitionCollector {
        let loader = DefinitionLoader()
        let file = try loader.readFile(ConfigSource(name: "rules.yaml", bytes: Array(definitions.utf8)))
        var collector = DefinitionCollector()
        for reader in file.documents { collector.add(reader) }
        return collector
    }

    static func compile(_ collector: DefinitionCollector, threshold: Int) -> ([FlagDefinition], FlagTargetingCompiler) {
        var compiler = FlagTargetingCompiler(
            evaluators: collector.evaluators, evaluatorNodes: collector.evaluatorNodes, options: TargetingOptions())
        compiler.compileAll(collector.definitions, parallelFrom: threshold)
        return (collector.definitions, compiler)
    }

    @Test("The same rules, problems and order as compiling one after another")
    func sameOutcome() throws {
        // Each rule is compiled once, into its definition: each way compiles its own reading.
        let collector = try Self.collected()
        #expect(collector.definitions.count == 80)
        let (serial, serialCompiler) = Self.compile(collector, threshold: .max)
        let (parallel, parallelCompiler) = Self.compile(try Self.collected(), threshold: 0)
        #expect(parallel.map(\.key) == serial.map(\.key))
        #expect(parallel.map(\.targetingProblem) == serial.map(\.targetingProblem))
        #expect(parallel.map { $0.compiledTargeting != nil } == serial.map { $0.compiledTargeting != nil })
        let context: EvaluationContext = ["targetingKey": "user-7", "country": "FR", "email": "a@x.example"]
        #expect(
            parallel.map { $0.compiledTargeting?.evaluate(context: context, flagKey: $0.key) }
                == serial.map { $0.compiledTargeting?.evaluate(context: context, flagKey: $0.key) })
        #expect(parallelCompiler.errors == serialCompiler.errors)
        #expect(parallelCompiler.warnings == serialCompiler.warnings)
        // Both halves reach the broken evaluator; its problem is reported once.
        let evaluatorReports = (parallelCompiler.errors + parallelCompiler.warnings).filter {
            $0.message.hasPrefix("evaluator 'broken'")
        }
        #expect(evaluatorReports.count == 1, "\(evaluatorReports)")
        #expect(parallelCompiler.errors.count > 20, "the unknown operators and non-variant results are errors")
    }
}
