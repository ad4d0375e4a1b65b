import Dispatch
import EnsignYAML

extension FlagTargetingCompiler {
    /// From how many targeting rules up ``compileAll(_:)`` compiles on two threads: below it,
    /// handing work to a second thread costs more than it saves.
    static let parallelThreshold = 64

    /// Every definition with its targeting compiled (see ``compile(_:)``), in order, with the
    /// problems reported as if compiled one after another.
    ///
    /// A large set's rules are compiled on two threads (a tenth of loading 10,000 flags with
    /// 1,250 rules): each rule compiles independently against the shared, read-only
    /// evaluators, so each half gets a compiler of its own, and their reports are merged in
    /// order, a problem both halves found (one in a shared evaluator) once.
    ///
    /// - Parameter threshold: How many rules make it worth a second thread (tests pass 0 and `.max`).
    mutating func compileAll(_ definitions: [FlagDefinition], parallelFrom threshold: Int = parallelThreshold)
        -> [FlagDefinition]
    {
        let targeted = definitions.indices.filter { definitions[$0].targetingNode != nil }
        guard targeted.count >= max(threshold, 2) else { return definitions.map { compile($0) } }
        let halves = [targeted[..<(targeted.count / 2)], targeted[(targeted.count / 2)...]]
        let blank = withoutReports
        let parts = LockedState<[Int: (compiled: [FlagDefinition], compiler: FlagTargetingCompiler)]>([:])
        DispatchQueue.concurrentPerform(iterations: halves.count) { part in
            var compiler = blank
            let compiled = halves[part].map { compiler.compile(definitions[$0]) }
            parts.withLock { $0[part] = (compiled, compiler) }
        }
        var result = definitions
        for part in halves.indices {
            guard let (compiled, compiler) = parts.withLock({ $0[part] }) else { continue }
            for (index, definition) in zip(halves[part], compiled) { result[index] = definition }
            merge(compiler)
        }
        return result
    }

    /// Takes `other`'s reports after this compiler's, each problem once.
    private mutating func merge(_ other: FlagTargetingCompiler) {
        for diagnostic in other.warnings where isNew(diagnostic) { warnings.append(diagnostic) }
        for diagnostic in other.errors where isNew(diagnostic) { errors.append(diagnostic) }
    }
}
