import EnsignYAML
import Synchronization

/// A flag's targeting rule from reading to compiling: its YAML, claimed by exactly one
/// compiler, then what that compiler made of it, published once into the definition itself.
///
/// A large file's rules compile on a second thread while the file is still read (see
/// ``RuleCompilationPipeline``). Compiling fills in the definition the reader made instead of
/// replacing it with a copy, and each rule's tree is released as soon as it is compiled: for
/// 10,000 flags the trees were 1.7 MB at once, and freeing them and the replaced definitions
/// at the end of the load left 2.5 MB of holes in the heap that the loaded set kept resident.
///
/// Memory ordering: the tree box is retained and its address stored before the definition is
/// shared with any thread; `exchange` hands that reference to one claimant only (the others
/// read 0), and its acquiring half makes the box's contents visible to the claimant.
/// The compiled result is published the same way, by a compare-and-exchange from 0 (releasing),
/// and read with an acquiring load, so a reader that sees it sees it whole; the first stands.
struct TargetingHandoff: ~Copyable, Sendable {
    /// A rule's YAML, boxed so that its reference can travel through an atomic word.
    private final class Tree: Sendable {
        let node: YAMLNode
        init(_ node: YAMLNode) { self.node = node }
    }

    /// The address of a retained ``Tree`` until a compiler claims it; 0 afterwards.
    private let treeAddress: Atomic<UInt>
    /// The address of the retained ``CompiledTargeting`` once published; 0 before. A word
    /// rather than `AtomicLazyReference`, whose resilient layout cost every read of a flag's
    /// rule a generic-metadata lookup (`FlagEvaluator.details` 20% slower).
    private let resultAddress = Atomic<UInt>(0)
    /// Whether the rule refers to a shared evaluator (`$ref`): it cannot compile before the
    /// files' `$evaluators` are all known.
    let usesEvaluator: Bool

    /// A handoff holding `node`, or an empty one (no rule) when it is `nil`.
    init(_ node: YAMLNode?) {
        usesEvaluator = node?.containsMappingKey("$ref") ?? false
        treeAddress = Atomic(node.map { UInt(bitPattern: Unmanaged.passRetained(Tree($0)).toOpaque()) } ?? 0)
    }

    deinit {
        _ = claim()
        published?.release()
    }

    /// The rule's YAML, for the one caller that compiles it; `nil` once claimed (or without a rule).
    func claim() -> YAMLNode? {
        let address = treeAddress.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return Unmanaged<Tree>.fromOpaque(pointer).takeRetainedValue().node
    }

    /// Records what the claiming compiler made of the rule; the first record stands.
    func publish(_ compiled: CompiledTargeting) {
        let address = UInt(bitPattern: Unmanaged.passRetained(compiled).toOpaque())
        let (stored, _) = resultAddress.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing)
        if !stored, let pointer = UnsafeRawPointer(bitPattern: address) {
            Unmanaged<CompiledTargeting>.fromOpaque(pointer).release()
        }
    }

    /// The published result, whose one reference the handoff holds until it is destroyed with
    /// its definition.
    private var published: Unmanaged<CompiledTargeting>? {
        UnsafeRawPointer(bitPattern: resultAddress.load(ordering: .acquiring)).map { Unmanaged.fromOpaque($0) }
    }

    /// The compiled rule, once there is one: read on every evaluation of a targeted flag, so
    /// it borrows the result instead of retaining it.
    var compiledRule: TargetingRule? { published?._withUnsafeGuaranteedRef { $0.rule } }

    /// What a compiler made of the rule, once one has.
    var compiled: CompiledTargeting? { published?.takeUnretainedValue() }
}

/// A targeting rule as its compiler left it: the rule, or why it does not compile, and the
/// rule as written.
final class CompiledTargeting: Sendable {
    /// The rule, ``TargetingRule/withoutFindings``; `nil` when it does not compile or is `{}`.
    let rule: TargetingRule?
    /// Why the rule does not compile.
    let problem: String?
    /// The rule as written.
    let written: FlagDefinition.WrittenRule?
    /// What compiling it reported, for the loader to record once, in the definitions' order;
    /// empty (no allocation) for a sound rule.
    let warnings: [Diagnostic]
    let errors: [Diagnostic]

    init(rule: TargetingRule?, problem: String?, written: RuleTree?, warnings: [Diagnostic], errors: [Diagnostic]) {
        self.rule = rule?.withoutFindings
        self.problem = problem
        self.written = written.map(FlagDefinition.WrittenRule.init(compacting:))
        self.warnings = warnings
        self.errors = errors
    }
}
