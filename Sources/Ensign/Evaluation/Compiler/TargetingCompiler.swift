/// Compiles a targeting rule's JSON into an ``Expression`` tree, collecting every problem and
/// the literal strings the rule can return.
///
/// One compiler compiles one rule (and the evaluators it reaches through `$ref`, each once).
struct TargetingCompiler {
    typealias Path = TargetingPath

    /// How deeply a rule may nest, `$ref`s included, before it is an error.
    static let maximumDepth = 256

    /// A compiled sub-rule and what it can evaluate to.
    struct Compiled {
        var expression: Expression
        /// Where the literal strings this sub-rule can evaluate to are in the compiler's
        /// ``TargetingCompiler/stringResults``.
        var results: Range<Int>
        /// Whether it can also evaluate to strings that are not literals in the rule.
        var mayReturnOtherStrings: Bool

        /// A sub-rule whose possible results are not known strings.
        static func computed(_ expression: Expression, mayReturnStrings: Bool) -> Compiled {
            Compiled(expression: expression, results: 0..<0, mayReturnOtherStrings: mayReturnStrings)
        }
    }

    /// An operator's argument with its location.
    struct Argument {
        let value: RuleTree
        let path: Path
    }

    /// The `$evaluators`, read once for every rule that reaches them.
    let evaluators: [String: RuleTree]
    let options: TargetingOptions
    private(set) var problems: [TargetingCompileProblem] = []
    /// Every literal string result found, each sub-rule's as a range: one array for the rule,
    /// where an array per literal and per operator was about a fifteenth of compiling a small rule.
    private(set) var stringResults: [TargetingStringResult] = []
    private var compiledEvaluators: [String: Compiled] = [:]
    /// The evaluators being compiled, outermost first: the last one is where paths are relative to.
    private var evaluatorStack: [String] = []
    private(set) var depth = 0

    init(evaluators: [String: RuleTree], options: TargetingOptions) {
        self.evaluators = evaluators
        self.options = options
    }

    /// Records a problem at `path` in the rule or evaluator being compiled.
    mutating func report(
        _ severity: TargetingCompileProblem.Severity, at path: Path, _ message: String, stopsCompilation: Bool = false
    ) {
        problems.append(
            TargetingCompileProblem(
                severity: severity, path: path.components, evaluatorName: evaluatorStack.last, message: message,
                stopsCompilation: stopsCompilation))
    }

    /// An error in a part of the rule that flagd reads only when an evaluation reaches it: the
    /// part fails there (`PARSE_ERROR`), and the rest of the rule works.
    mutating func failingWhereReached(at path: Path, _ message: String) -> Compiled {
        report(.error, at: path, message)
        return .computed(FailingExpression(message), mayReturnStrings: false)
    }

    /// Compiles `value`, found at `path`.
    mutating func compile(_ value: RuleTree, at path: Path) -> Compiled {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            report(
                .error, at: path, "the rule nests more than \(Self.maximumDepth) levels deep", stopsCompilation: true)
            return .computed(.literal(.null), mayReturnStrings: false)
        }
        switch value {
        case .values(let values) where depth < Self.maximumDepth:
            // A plain value in an array is its own literal, and an array's possible results are
            // not listed: an array of plain values is the literal it is written as (below the
            // depth limit, which compiling an element reports).
            return .computed(.literal(.array(values)), mayReturnStrings: false)
        case .array, .values:
            let elements = value.elements ?? []
            var parts: [Compiled] = []
            parts.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                // No path to build for a plain value.
                if !element.isCollection, depth < Self.maximumDepth {
                    parts.append(.computed(.literal(element.value), mayReturnStrings: false))
                } else {
                    parts.append(compile(element, at: path.appending(.index(index))))
                }
            }
            return .computed(Self.array(of: parts), mayReturnStrings: false)
        case .operation(let name, let operand):
            return compileOperator(name, operand[0], at: path.appending(.key(name)))
        case .scalar, .object:
            return literal(value.value, at: path)
        }
    }

    /// A constant found (or computed at compile time) at `path`.
    mutating func literal(_ value: JSONValue, at path: Path) -> Compiled {
        guard case .string(let text) = value else { return .computed(.literal(value), mayReturnStrings: false) }
        stringResults.append(TargetingStringResult(value: text, location: path, evaluatorName: evaluatorStack.last))
        return Compiled(
            expression: .literal(value), results: (stringResults.count - 1)..<stringResults.count,
            mayReturnOtherStrings: false)
    }

    /// A sub-rule that evaluates to one of `parts`: their results, in order, as one range (the
    /// parts' own when they lie next to each other, as they usually do, else copied after them).
    mutating func oneOf(_ expression: Expression, _ parts: some Collection<Compiled>) -> Compiled {
        var results: Range<Int>?
        var isContiguous = true
        for part in parts where !part.results.isEmpty {
            guard let current = results else {
                results = part.results
                continue
            }
            guard current.upperBound == part.results.lowerBound else {
                isContiguous = false
                break
            }
            results = current.lowerBound..<part.results.upperBound
        }
        if !isContiguous {
            let start = stringResults.count
            for part in parts {
                for index in part.results { stringResults.append(stringResults[index]) }
            }
            results = start..<stringResults.count
        }
        return Compiled(
            expression: expression, results: results ?? 0..<0,
            mayReturnOtherStrings: parts.contains { $0.mayReturnOtherStrings })
    }

    /// An array of `parts`: a literal when every part is one.
    static func array(of parts: [Compiled]) -> Expression {
        let expressions = parts.map(\.expression)
        return expressions.literalValues.map { .literal(.array($0)) } ?? .array(expressions)
    }

    /// Compiles each argument.
    mutating func compileAll(_ arguments: [Argument]) -> [Compiled] {
        var parts: [Compiled] = []
        parts.reserveCapacity(arguments.count)
        for argument in arguments { parts.append(compile(argument.value, at: argument.path)) }
        return parts
    }

    /// The arguments of an operator whose value is `argument` at `path`: the elements of an
    /// array, or the value itself (JsonLogic's shorthand `{"var": "x"}` for `{"var": ["x"]}`).
    static func arguments(of argument: RuleTree, at path: Path) -> [Argument] {
        guard let elements = argument.elements else { return [Argument(value: argument, path: path)] }
        return elements.enumerated().map { Argument(value: $1, path: path.appending(.index($0))) }
    }

    /// Reports an argument count outside `allowed`; returns whether the count is allowed.
    @discardableResult
    mutating func checkCount(
        of name: String, _ count: Int, allowed: ClosedRange<Int>, at path: Path,
        severity: TargetingCompileProblem.Severity = .error, consequence: String = ""
    ) -> Bool {
        guard !allowed.contains(count) else { return true }
        let expected: String
        switch (allowed.lowerBound, allowed.upperBound) {
        case (let low, let high) where low == high: expected = "\(low) argument\(low == 1 ? "" : "s")"
        case (let low, Int.max): expected = "at least \(low) argument\(low == 1 ? "" : "s")"
        case (let low, let high) where high == low + 1: expected = "\(low) or \(high) arguments"
        case (let low, let high): expected = "\(low) to \(high) arguments"
        }
        report(
            severity, at: path,
            "'\(name)' takes \(expected), but \(count) \(count == 1 ? "was" : "were") given\(consequence)")
        return false
    }

    /// Compiles (once) the evaluator `name`, reporting problems relative to it.
    mutating func compileEvaluator(named name: String) -> Compiled? {
        if let compiled = compiledEvaluators[name] { return compiled }
        guard let body = evaluators[name] else { return nil }
        evaluatorStack.append(name)
        let compiled = compile(body, at: .root)
        evaluatorStack.removeLast()
        compiledEvaluators[name] = compiled
        return compiled
    }

    /// `{"$ref": "name"}`: the evaluator's compiled rule, inlined.
    mutating func compileReference(_ argument: RuleTree, at path: Path) -> Compiled {
        guard case .scalar(.string(let name)) = argument else {
            return failingWhereReached(at: path, "'$ref' takes the name of an entry in $evaluators, a string")
        }
        // Exactly that name: a dictionary lookup would also find a canonically equivalent one.
        guard let index = evaluators.index(forKey: name), evaluators[index].key.isExactly(name) else {
            var message = "'$ref' names the evaluator '\(name)', which $evaluators does not define"
            if evaluators.isEmpty {
                message += "; add it under $evaluators"
            } else if let suggestion = OperatorCatalog.suggestion(for: name, among: Array(evaluators.keys)) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += "; defined evaluators: " + evaluators.keys.sorted().joined(separator: ", ")
            }
            return failingWhereReached(at: path, message)
        }
        if let start = evaluatorStack.firstIndex(of: name) {
            let cycle = (evaluatorStack[start...] + [name]).joined(separator: " → ")
            return failingWhereReached(
                at: path, "evaluator '\(name)' refers to itself through $ref (\(cycle)); break the cycle")
        }
        return compileEvaluator(named: name) ?? .computed(.literal(.null), mayReturnStrings: false)
    }
}
