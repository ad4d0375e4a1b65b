/// One step of a path into a targeting rule's JSON: an object member or an array element.
///
/// ```swift
/// let path: [TargetingPathComponent] = ["if", 0, "in"]   // rule.if[0].in
/// ```
package enum TargetingPathComponent: Sendable, Hashable {
    /// An object member, by key (for operators, the operator's name).
    case key(String)
    /// An array element, by zero-based index.
    case index(Int)
}

extension TargetingPathComponent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Creates a ``key(_:)`` component.
    package init(stringLiteral value: String) { self = .key(value) }

    /// Creates an ``index(_:)`` component.
    package init(integerLiteral value: Int) { self = .index(value) }

    /// The component as it appears in ``TargetingCompileProblem/pathDescription``: `.key` or `[3]`.
    package var description: String {
        switch self {
        case .key(let key): return "." + key
        case .index(let index): return "[\(index)]"
        }
    }
}

/// Something wrong (an error) or suspicious (a warning) in a targeting rule, found when it was
/// compiled.
///
/// ``path`` locates the problem inside the rule's JSON — at the operator's key for a problem
/// with the operator as a whole (unknown operator, wrong number of arguments), or at the
/// argument for a problem with one argument — so a loader can map it back to a file, line and
/// column. When the problem is inside a shared evaluator that the rule reaches through `$ref`,
/// ``evaluatorName`` names it and ``path`` is relative to that evaluator's rule.
package struct TargetingCompileProblem: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    package enum Severity: String, Sendable, Hashable {
        /// Part of the rule cannot be read: an unknown operator, a `$ref` to no evaluator or in
        /// a cycle, nesting too deep. `ensign validate` refuses the file; at run time that part
        /// fails (`PARSE_ERROR`) where an evaluation reaches it, as in flagd — unless the
        /// problem ``stopsCompilation``.
        case error
        /// The rule compiles and evaluates as flagd evaluates it, but part of it looks like a
        /// mistake: it can only evaluate to `null` or a constant, ignores arguments, or fails
        /// (`PARSE_ERROR` for that evaluation) wherever an evaluation reaches it.
        case warning
    }

    /// Whether the problem prevents compilation.
    package let severity: Severity
    /// Where the problem is, from the rule's root (or the named evaluator's root).
    package let path: [TargetingPathComponent]
    /// The `$evaluators` entry the path is relative to, when the problem is inside one.
    package let evaluatorName: String?
    /// What is wrong and, where it helps, how to fix it.
    package let message: String
    /// Whether no rule is made at all: only nesting too deep, which guards the evaluator's
    /// stack. Every other error leaves a rule whose faulty part fails where it is reached.
    package let stopsCompilation: Bool

    /// The location as text: `targeting.if[0].in` or `$evaluators.isStaff.ends_with[1]`.
    package var pathDescription: String {
        let root = evaluatorName.map { "$evaluators." + $0 } ?? "targeting"
        return root + path.map(\.description).joined()
    }

    /// The problem as `error: targeting.if[0].in: message`.
    package var description: String { "\(severity.rawValue): \(pathDescription): \(message)" }
}

/// The error thrown by ``TargetingRule/init(compiling:evaluators:options:)`` when a rule has
/// errors; it carries every problem found, warnings included.
package struct TargetingCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// All problems, in the order they appear in the rule.
    package let problems: [TargetingCompileProblem]

    /// Creates an error carrying `problems`.
    package init(problems: [TargetingCompileProblem]) {
        self.problems = problems
    }

    /// The problems with severity ``TargetingCompileProblem/Severity/error``.
    package var errors: [TargetingCompileProblem] { problems.filter { $0.severity == .error } }

    /// One problem per line.
    package var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A literal string a rule can evaluate to, such as a branch of `if` or a variant of
/// `fractional`, with where it is written.
package struct TargetingStringResult: Sendable, Hashable {
    /// The string the rule can return.
    package let value: String
    /// Where the literal is, shared with the compiler's path to it.
    let location: TargetingPath
    /// The `$evaluators` entry the path is relative to, when the literal is inside one.
    package let evaluatorName: String?

    /// Where the literal is, from the rule's root (or the named evaluator's root).
    package var path: [TargetingPathComponent] { location.components }

    /// Creates a result description.
    package init(value: String, path: [TargetingPathComponent], evaluatorName: String? = nil) {
        self.init(value: value, location: path.reduce(.root) { $0.appending($1) }, evaluatorName: evaluatorName)
    }

    /// A result at `location`, as the compiler finds it.
    init(value: String, location: TargetingPath, evaluatorName: String?) {
        self.value = value
        self.location = location
        self.evaluatorName = evaluatorName
    }
}

/// The outcome of ``TargetingRule/compile(_:evaluators:options:)``: the rule (unless a problem
/// stops compilation), and every problem found.
package struct TargetingCompilation: Sendable {
    /// The compiled rule, or `nil` when a problem ``TargetingCompileProblem/stopsCompilation``.
    /// Other errors leave a rule that fails where an evaluation reaches them, as flagd's does.
    package let rule: TargetingRule?
    /// Every error and warning, in the order they appear in the rule.
    package let problems: [TargetingCompileProblem]
}
