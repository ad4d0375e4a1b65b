import Dispatch
import EnsignYAML

extension FlagTargetingCompiler {
    /// From how many targeting rules up ``compileAll(_:parallelFrom:)`` compiles on
    /// two threads: below it, handing work to a second thread costs more than it saves.
    static let parallelThreshold = 64

    /// `definition`'s rule `node` compiled (see ``compile(_:rule:)``) by a fresh copy of this
    /// compiler, which records nothing here: safe to call from any thread. The result, problems
    /// included, is left in the definition.
    func compileAlone(_ definition: FlagDefinition, rule node: YAMLNode) {
        var compiler = withoutReports
        definition.publishTargeting(compiler.compile(definition, rule: node))
    }

    /// Compiles every definition's targeting that is not compiled yet, in place, and records
    /// the problems as if compiled one after another (a problem in a shared evaluator once).
    ///
    /// Each rule compiles independently against the shared, read-only evaluators, so the rules
    /// already compiled while the files were read (see ``RuleCompilationPipeline``) are taken
    /// as they are, and a large remainder is compiled on two threads. The pipeline must have
    /// finished: a rule it has claimed but not compiled is a broken invariant.
    ///
    /// - Parameter threshold: How many rules make it worth a second thread (tests pass 0 and `.max`).
    mutating func compileAll(_ definitions: [FlagDefinition], parallelFrom threshold: Int = parallelThreshold) {
        var remaining: [(definition: FlagDefinition, node: YAMLNode)] = []
        for definition in definitions {
            if let node = definition.claimTargetingTree() { remaining.append((definition, node)) }
        }
        if remaining.count >= max(threshold, 2) {
            let halves = [remaining[..<(remaining.count / 2)], remaining[(remaining.count / 2)...]]
            let compiler = self
            DispatchQueue.concurrentPerform(iterations: halves.count) { part in
                for rule in halves[part] { compiler.compileAlone(rule.definition, rule: rule.node) }
            }
        } else {
            for rule in remaining { compileAlone(rule.definition, rule: rule.node) }
        }
        for definition in definitions where definition.hasTargeting {
            guard let compiled = definition.targetingCompilation else {
                preconditionFailure("'\(definition.key)': its rule was claimed by a compiler still running")
            }
            record(compiled)
        }
    }

    /// Takes the reports of a rule compiled alone, each problem once.
    private mutating func record(_ compiled: CompiledTargeting) {
        for diagnostic in compiled.warnings where isNew(diagnostic) { warnings.append(diagnostic) }
        for diagnostic in compiled.errors where isNew(diagnostic) { errors.append(diagnostic) }
    }
}
