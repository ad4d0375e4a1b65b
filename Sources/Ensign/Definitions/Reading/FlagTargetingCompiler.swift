import EnsignSupport
import EnsignYAML

/// Compiles each flag's targeting against the shared `$evaluators` while definitions load, and
/// reports problems at their file positions: rules that cannot be read (unknown operators,
/// `$ref` to an unknown evaluator), parts that look wrong though flagd evaluates them (a wrong
/// number of arguments, a `fractional` weight that makes it `null`, an operand flagd fails
/// on), and results that cannot be a variant (or a value of the flag's type) when that is
/// decidable.
///
/// Errors are kept apart from warnings: each is confined to the flags whose rule it is in
/// (a rule that cannot be read makes its flag resolve with `PARSE_ERROR`), so a context
/// loads with them while `ensign validate` reports them as errors. Warnings leave the rule
/// working as flagd runs it; `ensign validate --strict` fails on them.
struct FlagTargetingCompiler {
    /// The `$evaluators`, read into rule trees once for every rule that reaches them.
    let evaluators: [String: RuleTree]
    let evaluatorNodes: [String: YAMLNode]
    let options: TargetingOptions
    /// Problems that leave the rules usable.
    var warnings: [Diagnostic] = []
    /// Errors in rules, each with a note saying what it does to the flags at run time.
    var errors: [Diagnostic] = []
    private var reported: Set<String> = []

    init(evaluators: [String: LocatedValue], evaluatorNodes: [String: YAMLNode], options: TargetingOptions) {
        self.evaluators = evaluators.mapValues { RuleTree($0.value) }
        self.evaluatorNodes = evaluatorNodes
        self.options = options
    }

    /// `definition`'s targeting rule `node` compiled, or the reason it does not compile
    /// (positions included, so a `PARSE_ERROR` read says where to look); the problems are
    /// reported here and kept in the result too.
    mutating func compile(_ definition: FlagDefinition, rule node: YAMLNode) -> CompiledTargeting {
        let (warningCount, errorCount) = (warnings.count, errors.count)
        let targeting = RuleTree(node)
        func compiled(_ rule: TargetingRule?, problem: String?) -> CompiledTargeting {
            CompiledTargeting(
                rule: rule, problem: problem, written: targeting, warnings: Array(warnings[warningCount...]),
                errors: Array(errors[errorCount...]))
        }
        // flagd reads `targeting: {}` as no targeting.
        if case .object(let members) = targeting, members.isEmpty { return compiled(nil, problem: nil) }
        let compilation = TargetingRule.compile(targeting, evaluators: evaluators, options: options)
        var reasons: [String] = []
        for problem in compilation.problems {
            // A problem inside a shared evaluator is the evaluator's, whichever flag reached it.
            let message =
                problem.evaluatorName.map { "evaluator '\($0)': \(problem.message)" }
                ?? "'\(definition.key)' targeting: \(problem.message)"
            // Nesting too deep stops compilation; any other error fails where an evaluation reaches it.
            let reached = problem.stopsCompilation ? "until it is fixed" : "wherever an evaluation reaches that part"
            let consequence =
                problem.evaluatorName.map {
                    "every flag that uses '\($0)' reads its code default with PARSE_ERROR \(reached)"
                }
                ?? "'\(definition.key)' reads its code default with PARSE_ERROR \(reached)"
            let location = report(
                problem.severity == .error ? .error : .warning, path: problem.path, evaluator: problem.evaluatorName,
                ruleNode: node, key: problem.evaluatorName == nil ? definition.key : nil, message,
                consequence: consequence)
            if problem.severity == .error {
                let evaluator = problem.evaluatorName.map { "evaluator '\($0)': " } ?? ""
                reasons.append("\(location): \(evaluator)\(problem.message)")
            }
        }
        guard let rule = compilation.rule else { return compiled(nil, problem: reasons.joined(separator: "; ")) }
        checkResults(of: rule, definition: definition, ruleNode: node)
        return compiled(rule, problem: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// This compiler's evaluators and options, with nothing reported yet.
    var withoutReports: FlagTargetingCompiler {
        var copy = self
        copy.warnings = []
        copy.errors = []
        copy.reported = []
        return copy
    }

    /// Reports problems in evaluators that no flag uses (problems in used ones are reported
    /// through the flags, once).
    mutating func checkEvaluators() {
        for problem in TargetingRule.checkEvaluators(evaluators, options: options) {
            guard let name = problem.evaluatorName, let node = evaluatorNodes[name] else { continue }
            report(
                problem.severity == .error ? .error : .warning, path: problem.path, evaluator: nil, ruleNode: node,
                key: nil, "evaluator '\(name)': \(problem.message)",
                consequence: "no flag uses '\(name)', so no value depends on it yet")
        }
    }

    private mutating func checkResults(of rule: TargetingRule, definition: FlagDefinition, ruleNode: YAMLNode) {
        for result in rule.possibleStringResults {
            let problem: String?
            if !definition.variants.isEmpty {
                // flagd names the variant by the result's JSON text without quotes, escapes included.
                let name = TargetingRule.variantName(for: .string(result.value)) ?? result.value
                if definition.variants[name] != nil { continue }
                let names = definition.variants.names.sorted()  // only for the message: a rule has many results
                let escaped = name.isExactly(result.value) ? "" : " (which flagd reads as '\(name)')"
                problem =
                    "can return '\(result.value)'\(escaped), which is not one of its variants (\(names.joined(separator: ", ")))"
                    + Suggestions.didYouMean(result.value, among: names)
            } else if case .failure(let valueProblem) = definition.rules.check(.string(result.value)) {
                problem = "can return \(valueProblem)"
            } else {
                problem = nil
            }
            guard let problem else { continue }
            report(
                .error, path: result.path, evaluator: result.evaluatorName, ruleNode: ruleNode, key: definition.key,
                "'\(definition.key)' targeting \(problem)",
                consequence: "where the rule returns it, '\(definition.key)' reads its code default with GENERAL")
        }
    }

    /// Records a problem once and returns where it is. An error carries `consequence` as a
    /// note: what it does at run time, where it is not an error for the whole file.
    @discardableResult
    private mutating func report(
        _ severity: Diagnostic.Severity, path: [TargetingPathComponent], evaluator: String?, ruleNode: YAMLNode,
        key: String?, _ message: String, consequence: String
    ) -> SourcePosition {
        let root = evaluator.flatMap { evaluatorNodes[$0] } ?? ruleNode
        let location = Self.node(at: path, in: root).location
        // Evaluator problems come up once per flag that uses the evaluator; report each once.
        guard reported.insert(Self.reportKey(location, message)).inserted else { return location }
        if severity == .error {
            errors.append(
                Diagnostic(
                    .error, at: location, key: key, message, notes: [Diagnostic(.note, at: location, consequence)]))
        } else {
            warnings.append(Diagnostic(severity, at: location, key: key, message))
        }
        return location
    }

    /// What makes two reports the same problem.
    private static func reportKey(_ location: SourcePosition, _ message: String) -> String {
        "\(location): \(message)"
    }

    /// Whether `diagnostic` (another compiler's) is a problem this one has not reported;
    /// records it.
    mutating func isNew(_ diagnostic: Diagnostic) -> Bool {
        reported.insert(Self.reportKey(diagnostic.location, diagnostic.message)).inserted
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
