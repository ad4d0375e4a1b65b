/// Compiles each flag's targeting against the shared `$evaluators` and reports problems at
/// their file positions: unknown operators, wrong arity, `$ref` to an unknown evaluator,
/// and results that cannot be a variant (or a value of the flag's type) when that is decidable.
struct FlagTargetingCompiler {
    let evaluators: [String: JSONValue]
    let evaluatorNodes: [String: YAMLNode]
    let options: TargetingOptions
    var diagnostics: [Diagnostic] = []
    private var reported: Set<String> = []

    init(evaluators: [String: LocatedValue], evaluatorNodes: [String: YAMLNode], options: TargetingOptions) {
        self.evaluators = evaluators.mapValues(\.value)
        self.evaluatorNodes = evaluatorNodes
        self.options = options
    }

    /// The definition with its compiled targeting (unchanged when it has none or it has errors).
    mutating func compile(_ definition: FlagDefinition) -> FlagDefinition {
        guard let targeting = definition.targeting, let node = definition.targetingNode,
            targeting.value != .object([:])  // flagd reads `targeting: {}` as no targeting
        else { return definition }
        let compilation = TargetingRule.compile(targeting.value, evaluators: evaluators, options: options)
        for problem in compilation.problems {
            // A problem inside a shared evaluator is the evaluator's, whichever flag reached it.
            let message =
                problem.evaluatorName.map { "evaluator '\($0)': \(problem.message)" }
                ?? "'\(definition.key)' targeting: \(problem.message)"
            report(
                problem.severity == .error ? .error : .warning, path: problem.path, evaluator: problem.evaluatorName,
                ruleNode: node, key: problem.evaluatorName == nil ? definition.key : nil, message)
        }
        guard let rule = compilation.rule else {
            let errors = compilation.problems.filter { $0.severity == .error }.map(\.message)
            return definition.withCompiledTargeting(nil, problem: errors.joined(separator: "; "))
        }
        checkResults(of: rule, definition: definition, ruleNode: node)
        return definition.withCompiledTargeting(rule, problem: nil)
    }

    /// Reports problems in evaluators that no flag uses (problems in used ones are reported
    /// through the flags, once).
    mutating func checkEvaluators() {
        for problem in TargetingRule.checkEvaluators(evaluators, options: options) {
            guard let name = problem.evaluatorName, let node = evaluatorNodes[name] else { continue }
            report(
                problem.severity == .error ? .error : .warning, path: problem.path, evaluator: nil, ruleNode: node,
                key: nil, "evaluator '\(name)': \(problem.message)")
        }
    }

    private mutating func checkResults(of rule: TargetingRule, definition: FlagDefinition, ruleNode: YAMLNode) {
        for result in rule.possibleStringResults {
            let problem: String?
            if !definition.variants.isEmpty {
                let names = definition.variants.keys.sorted()
                problem =
                    definition.variants[result.value] == nil
                    ? "can return '\(result.value)', which is not one of its variants (\(names.joined(separator: ", ")))"
                        + Suggestions.didYouMean(result.value, among: names)
                    : nil
            } else if case .failure(let valueProblem) = definition.rules.check(.string(result.value)) {
                problem = "can return \(valueProblem)"
            } else {
                problem = nil
            }
            guard let problem else { continue }
            report(
                .error, path: result.path, evaluator: result.evaluatorName, ruleNode: ruleNode, key: definition.key,
                "'\(definition.key)' targeting \(problem)")
        }
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, path: [TargetingPathComponent], evaluator: String?, ruleNode: YAMLNode,
        key: String?, _ message: String
    ) {
        let root = evaluator.flatMap { evaluatorNodes[$0] } ?? ruleNode
        let location = Self.node(at: path, in: root).location
        // Evaluator problems come up once per flag that uses the evaluator; report each once.
        guard reported.insert("\(location): \(message)").inserted else { return }
        diagnostics.append(Diagnostic(severity, at: location, key: key, message))
    }

    /// The deepest node along `path` (the node itself when the path leaves the tree).
    static func node(at path: [TargetingPathComponent], in root: YAMLNode) -> YAMLNode {
        var node = root
        for component in path {
            switch component {
            case .key(let key):
                guard let entry = node.entry(forKey: key) else { return node }
                // An operator's problem points at the operator's name, not its arguments.
                if component == path.last { return entry.key }
                node = entry.value
            case .index(let index):
                guard let elements = node.sequenceElements, elements.indices.contains(index) else {
                    // flagd allows a lone argument in place of a one-element list.
                    if index == 0 { continue }
                    return node
                }
                node = elements[index]
            }
        }
        return node
    }
}
