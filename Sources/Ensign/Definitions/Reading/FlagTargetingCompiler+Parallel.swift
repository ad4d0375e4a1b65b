import Dispatch
import EnsignYAML

extension FlagTargetingCompiler {
    /// From how many targeting rules up ``compileAll(_:precompiled:parallelFrom:)`` compiles on
    /// two threads: below it, handing work to a second thread costs more than it saves.
    static let parallelThreshold = 64

    /// One definition compiled by a compiler of its own: the result, and the problems that
    /// compiler reported, to be recorded in the definitions' order.
    struct RuleCompilation: Sendable {
        var definition: FlagDefinition
        var warnings: [Diagnostic]
        var errors: [Diagnostic]
    }

    /// `definition` with its rule `node` compiled (see ``compile(_:rule:)``) by a fresh copy of
    /// this compiler, which records nothing here: safe to call from any thread.
    func compiledAlone(_ definition: FlagDefinition, rule node: YAMLNode) -> RuleCompilation {
        var compiler = withoutReports
        let compiled = compiler.compile(definition, rule: node)
        return RuleCompilation(definition: compiled, warnings: compiler.warnings, errors: compiler.errors)
    }

    /// Every definition with its targeting compiled, in order, with the problems reported as
    /// if compiled one after another (a problem in a shared evaluator once).
    ///
    /// Each rule compiles independently against the shared, read-only evaluators, so the rules
    /// already compiled while the files were read (see ``RuleCompilationPipeline``) are taken
    /// as they are, and a large remainder is compiled on two threads. The pipeline must have
    /// finished: a rule it has claimed but not completed is a broken invariant. Each result is
    /// left in its rule's handoff, so compiling the same definitions again gives the same result.
    ///
    /// - Parameter threshold: How many rules make it worth a second thread (tests pass 0 and `.max`).
    mutating func compileAll(_ definitions: [FlagDefinition], parallelFrom threshold: Int = parallelThreshold)
        -> [FlagDefinition]
    {
        var compilations = [RuleCompilation?](repeating: nil, count: definitions.count)
        var remaining: [(index: Int, node: YAMLNode)] = []
        for index in definitions.indices {
            guard let handoff = definitions[index].pendingTargeting else { continue }
            if let node = handoff.claim() {
                remaining.append((index, node))
            } else if let done = handoff.compilation {
                compilations[index] = done
            } else {
                preconditionFailure("'\(definitions[index].key)': its rule was claimed by a compiler still running")
            }
        }
        if remaining.count >= max(threshold, 2) {
            let halves = [remaining[..<(remaining.count / 2)], remaining[(remaining.count / 2)...]]
            let parts = LockedState<[Int: [RuleCompilation]]>([:])
            let compiler = self
            DispatchQueue.concurrentPerform(iterations: halves.count) { part in
                let compiled = halves[part].map { compiler.compiledAlone(definitions[$0.index], rule: $0.node) }
                parts.withLock { $0[part] = compiled }
            }
            for part in halves.indices {
                for (rule, compilation) in zip(halves[part], parts.withLock({ $0[part] ?? [] })) {
                    compilations[rule.index] = compilation
                }
            }
        } else {
            for rule in remaining { compilations[rule.index] = compiledAlone(definitions[rule.index], rule: rule.node) }
        }
        for rule in remaining {
            guard let compilation = compilations[rule.index] else { continue }
            definitions[rule.index].pendingTargeting?.complete(compilation)
        }
        var result = definitions
        for index in definitions.indices {
            guard let compilation = compilations[index] else { continue }
            result[index] = compilation.definition
            record(compilation)
        }
        return result
    }

    /// Takes the reports of a rule compiled alone, each problem once.
    private mutating func record(_ compilation: RuleCompilation) {
        for diagnostic in compilation.warnings where isNew(diagnostic) { warnings.append(diagnostic) }
        for diagnostic in compilation.errors where isNew(diagnostic) { errors.append(diagnostic) }
    }
}
