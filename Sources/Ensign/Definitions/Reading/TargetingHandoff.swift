import EnsignYAML

/// A flag's targeting rule between reading and compiling: its YAML, handed to exactly one
/// compiler, then what that compiler made of it.
///
/// A large file's rules compile on a second thread while the file is still read (see
/// ``RuleCompilationPipeline``). Each rule's tree is released as soon as its rule is compiled,
/// instead of living in its definition until reading ends: for 10,000 flags the trees were
/// 1.7 MB at once, and freeing them all at the end left 2 MB of holes in the heap that the
/// loaded set then kept resident.
struct TargetingHandoff: Sendable {
    private enum Stage: Sendable {
        case written(YAMLNode)
        case compiling
        case compiled(FlagTargetingCompiler.RuleCompilation)
    }

    private let stage: LockedState<Stage>

    /// A handoff holding the rule's YAML.
    init(_ node: YAMLNode) {
        stage = LockedState(.written(node))
    }

    /// Whether the rule uses a shared evaluator (`$ref`), while it is still unclaimed.
    var usesEvaluator: Bool {
        stage.withLock { stage in
            guard case .written(let node) = stage else { return false }
            return node.containsMappingKey("$ref")
        }
    }

    /// The rule's YAML, for the one caller that compiles it; `nil` once claimed.
    func claim() -> YAMLNode? {
        stage.withLock { stage in
            guard case .written(let node) = stage else { return nil }
            stage = .compiling
            return node
        }
    }

    /// Records what the claiming compiler made of the rule (its tree is no longer held).
    func complete(_ compilation: FlagTargetingCompiler.RuleCompilation) {
        stage.withLock { $0 = .compiled(compilation) }
    }

    /// What a compiler made of the rule, once one has.
    var compilation: FlagTargetingCompiler.RuleCompilation? {
        stage.withLock { stage in
            guard case .compiled(let compilation) = stage else { return nil }
            return compilation
        }
    }
}
