import Dispatch
import EnsignYAML

extension FlagTargetingCompiler {
    /// From how many targeting rules up ``compileAll(_:precompiled:parallelFrom:)`` compiles on
    /// two threads: below it, handing work to a second thread costs more than it saves.
    static let parallelThreshold = 64

    /// One definition compiled by a compiler of its own: the result, and the problems that
    /// compiler reported, to be recorded in the definitions' order.
    struct RuleCompilation: Sendable {
        /// The definition as it was compiled from. Kept so that its storage, whose identity
        /// keys the precompiled rules, cannot be freed and its address given to another
        /// definition (a file read a second time makes new definitions).
        var source: FlagDefinition
        var definition: FlagDefinition
        var warnings: [Diagnostic]
        var errors: [Diagnostic]
    }

    /// `definition` compiled (see ``compile(_:)``) by a fresh copy of this compiler, which
    /// records nothing here: safe to call from any thread.
    func compiledAlone(_ definition: FlagDefinition) -> RuleCompilation {
        var compiler = withoutReports
        let compiled = compiler.compile(definition)
        return RuleCompilation(
            source: definition, definition: compiled, warnings: compiler.warnings, errors: compiler.errors)
    }

    /// Every definition with its targeting compiled, in order, with the problems reported as
    /// if compiled one after another (a problem in a shared evaluator once).
    ///
    /// Each rule compiles independently against the shared, read-only evaluators, so the rules
    /// already compiled while the files were read (`precompiled`, by the identity of the
    /// definition's storage; see ``RuleCompilationPipeline``) are taken as they are, and a
    /// large remainder is compiled on two threads.
    ///
    /// - Parameter threshold: How many rules make it worth a second thread (tests pass 0 and `.max`).
    mutating func compileAll(
        _ definitions: [FlagDefinition], precompiled: [ObjectIdentifier: RuleCompilation] = [:],
        parallelFrom threshold: Int = parallelThreshold
    ) -> [FlagDefinition] {
        var compilations = [RuleCompilation?](repeating: nil, count: definitions.count)
        var remaining: [Int] = []
        for index in definitions.indices where definitions[index].targetingNode != nil {
            if let done = precompiled[ObjectIdentifier(definitions[index].storage)],
                done.source.storage === definitions[index].storage
            {
                compilations[index] = done
            } else {
                remaining.append(index)
            }
        }
        if remaining.count >= max(threshold, 2) {
            let halves = [remaining[..<(remaining.count / 2)], remaining[(remaining.count / 2)...]]
            let parts = LockedState<[Int: [RuleCompilation]]>([:])
            let compiler = self
            DispatchQueue.concurrentPerform(iterations: halves.count) { part in
                let compiled = halves[part].map { compiler.compiledAlone(definitions[$0]) }
                parts.withLock { $0[part] = compiled }
            }
            for part in halves.indices {
                for (index, compilation) in zip(halves[part], parts.withLock({ $0[part] ?? [] })) {
                    compilations[index] = compilation
                }
            }
        } else {
            for index in remaining { compilations[index] = compiledAlone(definitions[index]) }
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
