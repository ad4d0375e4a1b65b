import Dispatch
import EnsignYAML

/// Compiles targeting rules on a second thread while the files are still being read, so a
/// large set's rules are ready when reading ends instead of being compiled after it.
///
/// Only rules without `$ref` are compiled early: they do not depend on the `$evaluators`, which
/// may come later in a file or in another file. Each rule is claimed from its definition's
/// ``TargetingHandoff`` and its result left there, its tree released at once. The rest, and any
/// rule the pipeline has not claimed, are compiled by
/// ``FlagTargetingCompiler/compileAll(_:parallelFrom:)``, which records every rule's problems in
/// the definitions' order, so the result and the diagnostics are the same as compiling
/// everything at the end.
final class RuleCompilationPipeline: Sendable {
    /// Rules handed to the second thread at a time.
    static let batchSize = 32

    private let compiler: FlagTargetingCompiler
    private let queue = DispatchQueue(label: "ensign.rules")
    private let group = DispatchGroup()
    private let pending = LockedState<[FlagDefinition]>([])

    /// A pipeline compiling with `options` (and no evaluators: it never compiles a `$ref`).
    init(options: TargetingOptions) {
        compiler = FlagTargetingCompiler(evaluators: [:], evaluatorNodes: [:], options: options)
    }

    /// Queues `definition`'s rule, when it has one without `$ref`.
    func submit(_ definition: FlagDefinition) {
        guard definition.hasTargeting, !definition.targetingUsesEvaluator else { return }
        let batch = pending.withLock { pending -> [FlagDefinition]? in
            pending.append(definition)
            guard pending.count >= Self.batchSize else { return nil }
            defer { pending = [] }
            return pending
        }
        if let batch { compile(batch) }
    }

    /// Waits until every queued rule is compiled, its result in its definition.
    func finish() {
        let rest = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        if !rest.isEmpty { compile(rest) }
        group.wait()
    }

    private func compile(_ batch: [FlagDefinition]) {
        let compiler = compiler
        queue.async(group: group) {
            for definition in batch {
                guard let node = definition.claimTargetingTree() else { continue }
                compiler.compileAlone(definition, rule: node)
            }
        }
    }
}

extension YAMLNode {
    /// Whether a mapping anywhere in this tree has the key `key` (as a plain scalar's text).
    func containsMappingKey(_ key: String) -> Bool {
        switch content {
        case .scalar: return false
        case .sequence(let elements): return elements.contains { $0.containsMappingKey(key) }
        case .mapping(let entries):
            return entries.contains { $0.key.scalarText == key || $0.value.containsMappingKey(key) }
        }
    }
}
