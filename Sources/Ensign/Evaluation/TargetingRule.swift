/// A flagd targeting rule — JsonLogic plus `fractional`, `sem_ver`, `starts_with`,
/// `ends_with` and `$ref` — compiled once and evaluated many times.
///
/// Compiling resolves every operator, splits every `var` path, folds constant sub-rules and
/// inlines each `$ref` to a shared evaluator, and reports every problem at once, each with the
/// path of the offending part of the rule. Evaluating walks the compiled tree: no parsing, no
/// name lookups, and no merged context object per call.
///
/// Semantics follow flagd's own daemon (its Go evaluator and JsonLogic library) where flagd's
/// references disagree, and json-logic-js, the JsonLogic reference, where its test suite pins
/// the behaviour down (truthiness, the loose and relational comparisons, `if` chains). The
/// rule's root data is the ``EvaluationContext``'s attributes plus `targetingKey` and flagd's
/// `$flagd.flagKey` and `$flagd.timestamp`.
///
/// Only a rule that cannot be read is a compile error: an unknown operator, a `$ref` to no
/// evaluator (or in a cycle), nesting deeper than 256 levels. Anything else compiles, as flagd
/// loads it, and what looks wrong is a warning. Evaluation never throws and never traps: a
/// flagd operator that cannot decide (a missing targeting key for `fractional`, an invalid
/// version for `sem_ver`, …) gives `null`, which flagd reads as "no match: use the default
/// variant"; and where flagd's evaluator fails (`{"+": [1, null]}`, `{"<": 5}`, `cat` of a
/// boolean), ``result(context:flagKey:timestamp:)`` reports a ``TargetingEvaluationError`` — only
/// when the evaluation reaches that part, so a branch not taken never fails.
///
/// ```swift
/// let rule = try TargetingRule(compiling: [
///     "if": [["in": [["var": "country"], ["FR", "BE"]]], ["fractional": [["on", 25], ["off", 75]]], .null],
/// ])
/// let variant = rule.evaluate(context: ["targetingKey": "user-42", "country": "FR"], flagKey: "newTransferFlow")
/// ```
package struct TargetingRule: Sendable {
    /// The options the rule was compiled with.
    package let options: TargetingOptions
    /// Problems that did not prevent compilation (parts that always evaluate to `null`, …).
    package let warnings: [TargetingCompileProblem]
    /// The literal strings the rule can evaluate to — `if` branches, `fractional` variants,
    /// `and`/`or` operands, `var` fallbacks, constants — with where each is written, so a
    /// loader can check that each names a defined variant.
    ///
    /// Conservative: it lists only literals that can be results; strings computed at
    /// evaluation time (a `var` without fallback, `cat`, …) are not listed, and
    /// ``canReturnComputedStrings`` says whether there may be any.
    package let possibleStringResults: [TargetingStringResult]
    /// Whether the rule can also evaluate to strings not in ``possibleStringResults``.
    package let canReturnComputedStrings: Bool

    let expression: Expression

    /// Compiles `rule`, resolving `$ref`s against `evaluators` (a flag file's `$evaluators`).
    ///
    /// - Throws: ``TargetingCompileError`` with every problem found when there is at least one
    ///   error; warnings alone do not throw and are kept in ``warnings``.
    package init(
        compiling rule: JSONValue, evaluators: [String: JSONValue] = [:], options: TargetingOptions = TargetingOptions()
    ) throws(TargetingCompileError) {
        let compilation = Self.compile(rule, evaluators: evaluators, options: options)
        guard let compiled = compilation.rule, !compilation.problems.contains(where: { $0.severity == .error }) else {
            throw TargetingCompileError(problems: compilation.problems)
        }
        self = compiled
    }

    // The rule's JSON is not kept: a loaded definition keeps it as written (as text), and a
    // copy here would hold the whole tree of values for every targeted flag.
    private init(
        options: TargetingOptions, compiled: TargetingCompiler.Compiled, results: ArraySlice<TargetingStringResult>,
        warnings: [TargetingCompileProblem]
    ) {
        self.options = options
        self.warnings = warnings
        self.expression = compiled.expression
        self.possibleStringResults = Self.unique(results)
        self.canReturnComputedStrings = compiled.mayReturnOtherStrings
    }

    /// `results` without repeats, in order: a rule has a handful, compared in place, where
    /// hashing their paths into a set cost a tenth of compiling a rule; many go through a set.
    private static func unique(_ results: ArraySlice<TargetingStringResult>) -> [TargetingStringResult] {
        guard results.count > 16 else {
            var unique: [TargetingStringResult] = []
            unique.reserveCapacity(results.count)
            for result in results where !unique.contains(result) { unique.append(result) }
            return unique
        }
        var seen = Set<TargetingStringResult>()
        return results.filter { seen.insert($0).inserted }
    }

    private init(evaluatingLike rule: TargetingRule) {
        options = rule.options
        expression = rule.expression
        warnings = []
        possibleStringResults = []
        canReturnComputedStrings = true
    }

    /// The same rule without its compile-time findings: no ``warnings``, no
    /// ``possibleStringResults`` (and so ``canReturnComputedStrings``, which stays true to
    /// that empty list). What a loaded definition keeps once the loader has reported and
    /// checked those findings: with their paths they cost more than the compiled tree.
    package var withoutFindings: TargetingRule { TargetingRule(evaluatingLike: self) }

    /// Compiles `rule` and returns the rule with every problem found. The rule is there despite
    /// errors unless one stops compilation: an unknown operator or an unresolved `$ref` fails
    /// only where an evaluation reaches it, as flagd evaluates it.
    ///
    /// Use this when problems are reported rather than thrown, as a loader validating a file does.
    package static func compile(
        _ rule: JSONValue, evaluators: [String: JSONValue] = [:], options: TargetingOptions = TargetingOptions()
    ) -> TargetingCompilation {
        compile(RuleTree(rule), evaluators: evaluators.mapValues(RuleTree.init), options: options)
    }

    /// Compiles `rule` as a loader read it, against evaluators read once for all its rules.
    static func compile(
        _ rule: RuleTree, evaluators: [String: RuleTree], options: TargetingOptions
    ) -> TargetingCompilation {
        var compiler = TargetingCompiler(evaluators: evaluators, options: options)
        let compiled = compiler.compile(rule, at: .root)
        let problems = compiler.problems
        guard !problems.contains(where: \.stopsCompilation) else {
            return TargetingCompilation(rule: nil, problems: problems)
        }
        let result = TargetingRule(
            options: options, compiled: compiled, results: compiler.stringResults[compiled.results], warnings: problems)
        return TargetingCompilation(rule: result, problems: problems)
    }

    /// Compiles every entry of `evaluators` on its own and returns their problems (paths relative
    /// to each evaluator), so a loader can report problems in evaluators no flag references.
    package static func checkEvaluators(
        _ evaluators: [String: JSONValue], options: TargetingOptions = TargetingOptions()
    ) -> [TargetingCompileProblem] {
        checkEvaluators(evaluators.mapValues(RuleTree.init), options: options)
    }

    /// ``checkEvaluators(_:options:)`` for evaluators a loader has read.
    static func checkEvaluators(_ evaluators: [String: RuleTree], options: TargetingOptions)
        -> [TargetingCompileProblem]
    {
        var compiler = TargetingCompiler(evaluators: evaluators, options: options)
        for name in evaluators.keys.sorted() { _ = compiler.compileEvaluator(named: name) }
        return compiler.problems
    }

    /// Evaluates the rule for `context` on behalf of the flag `flagKey`.
    ///
    /// - Parameters:
    ///   - context: the attributes and targeting key the rule reads.
    ///   - flagKey: the flag being evaluated: `$flagd.flagKey`, and the first half of
    ///     `fractional`'s default bucketing key.
    ///   - timestamp: `$flagd.timestamp` in unix seconds; the current time when `nil` (read only if
    ///     the rule uses it).
    /// - Returns: the rule's value — usually a variant name — or `null` when no branch matched or
    ///   the evaluation failed (``result(context:flagKey:timestamp:)`` tells the two apart).
    package func evaluate(context: consuming EvaluationContext, flagKey: consuming String, timestamp: Int? = nil)
        -> JSONValue
    {
        let environment = EvaluationEnvironment(context: context, flagKey: flagKey, timestamp: timestamp)
        do {
            return try expression.evaluate(in: .root, environment)
        } catch {
            return .null
        }
    }

    /// Evaluates the rule with arbitrary JSON as its root data, as plain JsonLogic does.
    ///
    /// `targetingKey` and `$flagd` are read from `data` itself; `flagKey` is used for
    /// `fractional`'s default bucketing key when `data` has no `$flagd.flagKey`. A failed
    /// evaluation reads as `null` (``result(data:flagKey:)`` tells it apart).
    package func evaluate(data: JSONValue, flagKey: String = "") -> JSONValue {
        let environment = EvaluationEnvironment(data: data, flagKey: flagKey, timestamp: nil)
        do {
            return try expression.evaluate(in: .root, environment)
        } catch {
            return .null
        }
    }

    /// Evaluates the rule for `context` as flagd does, telling a failure apart from `null`.
    ///
    /// Fails where flagd's evaluator fails — only in the parts of the rule this evaluation
    /// reaches — and when the result holds `NaN` or an infinity, which flagd cannot send
    /// (`{"/": [1, 0]}`). A flag reads `PARSE_ERROR` for a failed evaluation. The parameters
    /// are those of ``evaluate(context:flagKey:timestamp:)``.
    package func result(context: consuming EvaluationContext, flagKey: consuming String, timestamp: Int? = nil)
        -> Result<JSONValue, TargetingEvaluationError>
    {
        Self.outcome(
            of: expression, in: EvaluationEnvironment(context: context, flagKey: flagKey, timestamp: timestamp))
    }

    /// Evaluates the rule with arbitrary JSON as its root data, telling a failure apart from
    /// `null` as ``result(context:flagKey:timestamp:)`` does.
    package func result(data: JSONValue, flagKey: String = "") -> Result<JSONValue, TargetingEvaluationError> {
        Self.outcome(of: expression, in: EvaluationEnvironment(data: data, flagKey: flagKey, timestamp: nil))
    }

    private static func outcome(of expression: Expression, in environment: EvaluationEnvironment)
        -> Result<JSONValue, TargetingEvaluationError>
    {
        let value: JSONValue
        do {
            value = try expression.evaluate(in: .root, environment)
        } catch {
            return .failure(TargetingEvaluationError(message: error.message))
        }
        // flagd encodes the result as JSON, which fails on NaN and the infinities.
        if let number = firstNonFiniteNumber(in: value) {
            return .failure(
                TargetingEvaluationError(
                    message:
                        "the rule evaluated to \(JavaScriptNumberText.text(for: number)), which JSON cannot represent"))
        }
        return .success(value)
    }

    private static func firstNonFiniteNumber(in value: JSONValue) -> Double? {
        switch value {
        case .double(let number): return number.isFinite ? nil : number
        case .array(let elements): return elements.lazy.compactMap(firstNonFiniteNumber).first
        case .object(let members): return members.values.lazy.compactMap(firstNonFiniteNumber).first
        default: return nil
        }
    }

    /// The name of the variant a rule's result selects, as flagd's daemon reads it: the result
    /// written as JSON the way Go writes it, with every `"` removed.
    ///
    /// A string names the variant spelled the same; `true` names "true", `2` and `2.0` name "2",
    /// `["on"]` names "[on]" and `{"a": 1}` names "{a:1}". `null` names none (the default variant
    /// applies). Go escapes `"`, `\`, `<`, `>`, `&`, control characters, U+2028 and U+2029, so a
    /// result holding one of them names its escaped form (`"a<b"` names `a\u003cb`): a variant
    /// whose name holds such a character is served only as the default variant. A computed
    /// negative zero names "-0".
    package static func variantName(for result: JSONValue) -> String? {
        FlagdVariantName.name(for: result)
    }
}
