extension TargetingCompiler {
    /// How an operator's operand is written.
    enum OperandShape {
        /// An array: the arguments.
        case list
        /// An object with one key: an operation, whose value flagd reads as the arguments.
        case operation
        /// Any other value.
        case value

        init(_ operand: RuleTree) {
            switch operand {
            case .array, .values: self = .list
            case .operation: self = .operation
            case .scalar, .object: self = .value
            }
        }
    }

    /// What a warning adds when the part it is about fails whenever it is evaluated.
    static let failureConsequence =
        "; flagd cannot evaluate it, so the flag reads PARSE_ERROR wherever the rule reaches it"

    /// Compiles the operation `{name: argument}`; `path` ends with the operator's key.
    ///
    /// Only what flagd cannot read at all is an error: an unknown operator, a `$ref` to no
    /// evaluator, nesting too deep. Everything else compiles, and what looks wrong is a
    /// warning: flagd evaluates it (to `null`, to a value, or to an evaluation failure that
    /// reads `PARSE_ERROR`), and only when the rule reaches it. The errors but nesting fail
    /// the same way at run time: only where an evaluation reaches them.
    mutating func compileOperator(_ name: String, _ argument: RuleTree, at path: Path) -> Compiled {
        let shape = OperandShape(argument)
        let arguments = Self.arguments(of: argument, at: path)
        // Operator names are ASCII, where Swift's `==` is byte equality; a name with any other
        // character is unknown, even a canonically equivalent one (a Kelvin sign for "K").
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return compileUnknown(name, arguments, at: path) }
        switch name {
        case "$ref":
            return compileReference(argument, at: path)
        case "var":
            return compileVariable(argument, arguments, at: path)
        case "if", "?:", "and", "or", "map", "filter", "reduce", "all", "none", "some":
            // flagd reads these operators' arguments as written: they must be an array.
            guard shape == .list else { return compileFailing(name, argument, at: path) }
            switch name {
            case "if", "?:":
                let parts = compileAll(arguments)
                let branches = parts.indices.lazy
                    .filter { $0 % 2 == 1 || ($0 == parts.count - 1 && parts.count % 2 == 1) }
                    .map { parts[$0] }
                return oneOf(.conditional(parts.map(\.expression)), branches)
            case "and", "or":
                if arguments.isEmpty {
                    report(.warning, at: path, "'\(name)' of no arguments always evaluates to null")
                }
                let parts = compileAll(arguments)
                let operands = parts.map(\.expression)
                return oneOf(name == "and" ? .and(operands) : .or(operands), parts)
            default:
                return compileIteration(name, arguments, at: path)
            }
        case "fractional":
            return compileFractional(argument, arguments, at: path)
        case "sem_ver":
            return compileSemanticVersion(argument, arguments, at: path)
        default:
            guard let operation = OperatorCatalog.operations[name] else {
                return compileUnknown(name, arguments, at: path)
            }
            switch shape {
            case .list:
                return compileOperation(operation, named: name, arguments, at: path)
            case .operation:
                let operand = compile(argument, at: path)
                return .computed(
                    ComputedOperandsExpression(operation, operand.expression),
                    mayReturnStrings: operation == .concatenate || operation == .substring || operation == .log)
            case .value:
                let argument = argument.value
                switch operation.rule(forLoneOperand: argument) {
                case .onlyArgument:
                    return compileOperation(operation, named: name, arguments, at: path)
                case .constant(let value):
                    report(
                        .warning, at: path,
                        "'\(name)' takes an array of arguments; of \(GoJsonLogic.describe(argument)) alone it always evaluates to \(value.jsonText)"
                    )
                    return literal(value, at: path)
                case .failure(let message):
                    report(.warning, at: path, message + Self.failureConsequence)
                    return .computed(FailingExpression(message), mayReturnStrings: false)
                }
            }
        }
    }

    /// An operator that does not exist: an error, which fails where an evaluation reaches it
    /// (flagd's evaluator fails there, and not before); its arguments are still compiled, so
    /// that problems inside them are reported.
    private mutating func compileUnknown(_ name: String, _ arguments: [Argument], at path: Path) -> Compiled {
        var message = "unknown operator '\(name)'"
        if let suggestion = OperatorCatalog.suggestion(for: name, among: OperatorCatalog.allNames) {
            message += "; did you mean '\(suggestion)'?"
        }
        message += " (an object with exactly one key is read as an operation)"
        let failing = failingWhereReached(at: path, message)
        _ = compileAll(arguments)
        return failing
    }

    /// An operator flagd cannot evaluate with `argument`: the operand is still compiled, so that
    /// problems inside it are reported, and the operator fails where the rule reaches it.
    private mutating func compileFailing(_ name: String, _ argument: RuleTree, at path: Path) -> Compiled {
        let message = "'\(name)' takes an array of arguments, not \(GoJsonLogic.describe(argument.value))"
        report(.warning, at: path, message + Self.failureConsequence)
        _ = compile(argument, at: path)
        return .computed(FailingExpression(message), mayReturnStrings: false)
    }

    private mutating func compileOperation(
        _ operation: Operator, named name: String, _ arguments: [Argument], at path: Path
    ) -> Compiled {
        let parts = compileAll(arguments)
        let reportedFailure = checkArguments(of: operation, named: name, arguments.count, at: path)
        if operation == .startsWith || operation == .endsWith {
            for (part, argument) in zip(parts, arguments) {
                if let literal = part.expression.literalValue, literal.stringValue == nil {
                    report(
                        .warning, at: argument.path,
                        "'\(name)' compares strings; with \(literal.jsonText) it always evaluates to null")
                }
            }
        }
        let expression = Expression.operation(operation, parts.map(\.expression))
        if !operation.readsData, parts.allSatisfy(\.expression.isLiteral) {
            do {
                return literal(try expression.evaluate(in: .root, Self.constantEnvironment), at: path)
            } catch {
                // Not folded: it fails when (and only if) the rule reaches it.
                if !reportedFailure { report(.warning, at: path, error.message + Self.failureConsequence) }
            }
        }
        switch operation {
        case .log: return oneOf(expression, parts.prefix(1))
        case .concatenate, .substring: return .computed(expression, mayReturnStrings: true)
        default: return .computed(expression, mayReturnStrings: false)
        }
    }

    /// Warns about argument counts flagd reads in a way the author may not expect; returns
    /// whether the warning says the operation fails.
    private mutating func checkArguments(
        of operation: Operator, named name: String, _ count: Int, at path: Path
    ) -> Bool {
        // Computed only for a message: this runs for every operation of every rule.
        var given: String { "\(count) \(count == 1 ? "was" : "were") given" }
        func warn(_ message: String) { report(.warning, at: path, message) }
        func fail(_ message: String) -> Bool {
            warn(message + Self.failureConsequence)
            return true
        }
        switch operation {
        case .looselyEqual, .strictlyEqual, .notLooselyEqual, .notStrictlyEqual:
            let negated = operation == .notLooselyEqual || operation == .notStrictlyEqual
            if count < 2 {
                warn("'\(name)' compares two values, but \(given); it always evaluates to \(negated)")
            } else if count > 2 {
                warn("'\(name)' compares two values; flagd ignores the rest")
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if count < 2 {
                warn(
                    "'\(name)' compares two values (or three, as a between), but \(given); it always evaluates to false"
                )
            } else if count > 3 {
                warn(
                    "'\(name)' compares two values, or three as a between; given \(count), flagd compares the first two"
                )
            }
        case .not, .truthy, .log:
            if count > 1 { warn("'\(name)' takes one argument; flagd ignores the rest") }
        case .remainder:
            if count < 2 { return fail("'%' needs two numbers, but \(given)") }
            if count > 2 { warn("'%' takes two numbers; flagd ignores the rest") }
        case .maximum, .minimum:
            if count == 0 { warn("'\(name)' of no numbers always evaluates to null") }
        case .substring:
            if count < 2 { return fail("'substr' needs a text and a start, but \(given)") }
            if count > 3 {
                warn(
                    "'substr' takes a text, a start and a length; given \(count), flagd ignores the length and the rest"
                )
            }
        case .contains:
            if count == 0 { return fail("'in' needs a value to look for and where to look, but none was given") }
            if count == 1 {
                warn("'in' needs a value to look for and where to look; with one it always evaluates to false")
            }
            if count > 2 { warn("'in' takes two arguments; flagd ignores the rest") }
        case .missingSome:
            if count < 2 { return fail("'missing_some' needs a count and an array of keys, but \(given)") }
            if count > 2 { warn("'missing_some' takes two arguments; flagd ignores the rest") }
        case .startsWith, .endsWith:
            if count != 2 {
                warn("'\(name)' takes 2 arguments, but \(given); it always evaluates to null")
            }
        case .add, .multiply, .subtract, .divide, .concatenate, .merge, .missing:
            break
        }
        return false
    }

    /// The environment used to fold operations whose operands are all literals.
    private static var constantEnvironment: EvaluationEnvironment {
        EvaluationEnvironment(data: .null, flagKey: "", timestamp: 0)
    }

    /// `var`: a path (text or a number), `[path]`, `[path, fallback]`, or an operation whose
    /// value is one of these.
    private mutating func compileVariable(_ argument: RuleTree, _ arguments: [Argument], at path: Path) -> Compiled {
        switch argument {
        case .array, .values:
            let parts = compileAll(arguments)
            guard let key = parts.first else {
                return .computed(
                    VariableExpression(path: VariablePath(key: .none), fallback: nil), mayReturnStrings: true)
            }
            if arguments.count > 2 {
                report(
                    .warning, at: path,
                    "'var' takes a path and a fallback, but \(arguments.count) were given; flagd then uses no fallback at all"
                )
            }
            let fallback = arguments.count == 2 ? parts[1] : nil
            var compiled: Compiled
            switch key.expression.literalValue {
            case .string?:
                let node = VariableExpression(
                    path: VariablePath(key: key.expression.literalValue), fallback: fallback?.expression)
                compiled = oneOf(node, fallback.map { [$0] } ?? [])
            case let literal? where arguments.count <= 2:
                let message = "'var' needs a path that is text, not \(GoJsonLogic.describe(literal))"
                report(.warning, at: arguments[0].path, message + Self.failureConsequence)
                return .computed(FailingExpression(message), mayReturnStrings: false)
            default:
                let list: Expression = .array(parts.map(\.expression))
                compiled = oneOf(ComputedVariableExpression(key: list), fallback.map { [$0] } ?? [])
            }
            compiled.mayReturnOtherStrings = true
            return compiled
        case .operation:
            return .computed(
                ComputedVariableExpression(key: compile(argument, at: path).expression), mayReturnStrings: true)
        case .scalar(.bool), .object:
            let message = "'var' needs a path that is text or a number, not \(GoJsonLogic.describe(argument.value))"
            report(.warning, at: path, message + Self.failureConsequence)
            return .computed(FailingExpression(message), mayReturnStrings: false)
        case .scalar(let key):
            return .computed(VariableExpression(path: VariablePath(key: key), fallback: nil), mayReturnStrings: true)
        }
    }

    private mutating func compileIteration(_ name: String, _ arguments: [Argument], at path: Path) -> Compiled {
        let kind = IterationExpression.Kind(rawValue: name) ?? .some
        let needed = kind == .reduce ? 3 : 2
        let parts = compileAll(arguments)
        switch kind {
        case .map, .filter, .reduce:
            guard parts.count >= needed else {
                let result: JSONValue = kind == .reduce ? 0 : []
                let what =
                    kind == .reduce
                    ? "an array, the logic to combine elements and an initial value"
                    : "an array and the logic to run on each element"
                report(.warning, at: path, "'\(name)' needs \(what); it always evaluates to \(result.jsonText)")
                return literal(result, at: path)
            }
        case .all, .none, .some:
            guard !parts.isEmpty else {
                let message = "'\(name)' needs an array and the logic to test each element"
                report(.warning, at: path, message + Self.failureConsequence)
                return .computed(FailingExpression(message), mayReturnStrings: false)
            }
        }
        if parts.count > needed {
            report(.warning, at: path, "'\(name)' takes \(needed) arguments; flagd ignores the rest")
        }
        let source = arguments[0].value
        let sourceIsCollection = source.isCollection
        if !sourceIsCollection {
            report(
                .warning, at: arguments[0].path,
                "'\(name)' runs over an array; flagd reads \(GoJsonLogic.describe(source.value)) as no array at all")
        }
        var bodyFailure: String?
        if kind != .map, kind != .filter {
            // flagd applies the logic as an operation, which must be an object.
            if parts.count < 2 {
                bodyFailure = "'\(name)' needs the logic to test each element"
            } else if arguments[1].value.isObject {
                bodyFailure = nil
            } else {
                bodyFailure =
                    "'\(name)' runs an operation on each element, not \(GoJsonLogic.describe(arguments[1].value.value))"
            }
            if let bodyFailure {
                report(
                    .warning, at: path,
                    bodyFailure + "; unless the array is empty, flagd cannot evaluate it, so the flag reads PARSE_ERROR"
                )
            }
        }
        func part(_ index: Int) -> Expression? { index < parts.count ? parts[index].expression : nil }
        let expression = IterationExpression(
            kind: kind, source: parts[0].expression, sourceIsCollection: sourceIsCollection, body: part(1),
            bodyFailure: bodyFailure, initial: part(2))
        guard kind == .reduce else { return .computed(expression, mayReturnStrings: false) }
        var compiled = oneOf(expression, parts.dropFirst(2))
        compiled.mayReturnOtherStrings = true
        return compiled
    }

    private mutating func compileSemanticVersion(_ argument: RuleTree, _ arguments: [Argument], at path: Path)
        -> Compiled
    {
        if OperandShape(argument) == .operation {
            // flagd evaluates the operation and reads its value as the three arguments.
            let operand = compile(argument, at: path)
            return .computed(SemanticVersionExpression(computedOperands: operand.expression), mayReturnStrings: false)
        }
        let comparisons = SemanticVersionComparison.allCases.map(\.rawValue).joined(separator: " ")
        let parts = compileAll(arguments)
        if checkCount(
            of: "sem_ver", arguments.count, allowed: 3...3, at: path, severity: .warning,
            consequence: " (a version, a comparison among \(comparisons), and a version); it always evaluates to null")
        {
            if let literal = parts[1].expression.literalValue,
                literal.stringValue.flatMap(SemanticVersionComparison.init(exactly:)) == nil
            {
                report(
                    .warning, at: arguments[1].path,
                    "'sem_ver' has no comparison \(literal.jsonText); use one of \(comparisons). It always evaluates to null"
                )
            }
            for index in [0, 2] {
                if let literal = parts[index].expression.literalValue, SemanticVersion(value: literal) == nil {
                    report(
                        .warning, at: arguments[index].path,
                        "\(literal.jsonText) is not a semantic version (like \"1.2.3\" or \"v2.0.0-beta.1\"); 'sem_ver' always evaluates to null"
                    )
                }
            }
        }
        return .computed(
            SemanticVersionExpression(operands: parts.map(\.expression)), mayReturnStrings: false)
    }
}
