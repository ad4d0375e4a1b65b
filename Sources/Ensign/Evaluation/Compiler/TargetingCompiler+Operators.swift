extension TargetingCompiler {
    /// Compiles the operation `{name: argument}`; `path` ends with the operator's key.
    mutating func compileOperator(_ name: String, _ argument: JSONValue, at path: Path) -> Compiled {
        let arguments = Self.arguments(of: argument, at: path)
        switch name {
        case "$ref":
            return compileReference(argument, at: path)
        case "var":
            return compileVariable(arguments, at: path)
        case "if", "?:":
            let parts = compileAll(arguments)
            let branches = parts.indices.filter { $0 % 2 == 1 || ($0 == parts.count - 1 && parts.count % 2 == 1) }
            return .oneOf(.conditional(parts.map(\.expression)), branches.map { parts[$0] })
        case "and", "or":
            checkCount(of: name, arguments.count, allowed: 1...Int.max, at: path)
            let parts = compileAll(arguments)
            let operands = parts.map(\.expression)
            return .oneOf(name == "and" ? .and(operands) : .or(operands), parts)
        case "map", "filter", "reduce", "all", "none", "some":
            return compileIteration(name, arguments, at: path)
        case "fractional":
            return compileFractional(argument, arguments, at: path)
        case "sem_ver":
            return compileSemanticVersion(arguments, at: path)
        default:
            guard let operation = OperatorCatalog.operations[name] else {
                var message = "unknown operator '\(name)'"
                if let suggestion = OperatorCatalog.suggestion(for: name, among: OperatorCatalog.allNames) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += " (an object with exactly one key is read as an operation)"
                report(.error, at: path, message)
                _ = compileAll(arguments)
                return .computed(.literal(.null), mayReturnStrings: false)
            }
            return compileOperation(operation, named: name, arguments, at: path)
        }
    }

    private mutating func compileOperation(
        _ operation: Operator, named name: String, _ arguments: [Argument], at path: Path
    ) -> Compiled {
        let isFlagdOperator = operation == .startsWith || operation == .endsWith
        checkCount(
            of: name, arguments.count, allowed: operation.operandCounts, at: path,
            severity: isFlagdOperator ? .warning : .error,
            consequence: isFlagdOperator ? "; it always evaluates to null" : "")
        let parts = compileAll(arguments)
        if isFlagdOperator {
            for (part, argument) in zip(parts, arguments) {
                if let literal = part.expression.literalValue, literal.stringValue == nil {
                    report(
                        .warning, at: argument.path,
                        "'\(name)' compares strings; with \(literal.jsonText) it always evaluates to null")
                }
            }
        }
        let expression = Expression.operation(operation, parts.map(\.expression))
        if !operation.readsData, parts.allSatisfy(\.expression.isLiteral),
            let constant = try? expression.evaluate(in: .root, Self.constantEnvironment)
        {
            return literal(constant, at: path)
        }
        switch operation {
        case .log: return .oneOf(expression, Array(parts.prefix(1)))
        case .concatenate, .substring: return .computed(expression, mayReturnStrings: true)
        default: return .computed(expression, mayReturnStrings: false)
        }
    }

    /// The environment used to fold operations whose operands are all literals.
    private static var constantEnvironment: EvaluationEnvironment {
        EvaluationEnvironment(data: .null, flagKey: "", timestamp: 0)
    }

    private mutating func compileVariable(_ arguments: [Argument], at path: Path) -> Compiled {
        checkCount(of: "var", arguments.count, allowed: 0...2, at: path)
        guard let first = arguments.first else {
            return .computed(VariableExpression(path: VariablePath(key: .none), fallback: nil), mayReturnStrings: true)
        }
        let keyPart = compile(first.value, at: first.path)
        let fallback = arguments.count > 1 ? compile(arguments[1].value, at: arguments[1].path) : nil
        let node: Expression =
            keyPart.expression.literalValue.map {
                VariableExpression(path: VariablePath(key: $0), fallback: fallback?.expression)
            }
            ?? ComputedVariableExpression(path: keyPart.expression, fallback: fallback?.expression)
        var compiled = Compiled.oneOf(node, fallback.map { [$0] } ?? [])
        compiled.mayReturnOtherStrings = true
        return compiled
    }

    private mutating func compileIteration(_ name: String, _ arguments: [Argument], at path: Path) -> Compiled {
        checkCount(of: name, arguments.count, allowed: name == "reduce" ? 2...3 : 2...2, at: path)
        let parts = compileAll(arguments)
        let kind: IterationExpression.Kind
        switch name {
        case "map": kind = .map
        case "filter": kind = .filter
        case "reduce": kind = .reduce
        case "all": kind = .all
        case "none": kind = .none
        default: kind = .some
        }
        func part(_ index: Int) -> Expression? { index < parts.count ? parts[index].expression : nil }
        let expression = IterationExpression(kind: kind, source: part(0), body: part(1), initial: part(2))
        guard kind == .reduce else { return .computed(expression, mayReturnStrings: false) }
        var compiled = Compiled.oneOf(expression, Array(parts.dropFirst(2)))
        compiled.mayReturnOtherStrings = true
        return compiled
    }

    private mutating func compileSemanticVersion(_ arguments: [Argument], at path: Path) -> Compiled {
        let comparisons = SemanticVersionComparison.allCases.map(\.rawValue).joined(separator: " ")
        let parts = compileAll(arguments)
        if checkCount(
            of: "sem_ver", arguments.count, allowed: 3...3, at: path, severity: .warning,
            consequence: " (a version, a comparison among \(comparisons), and a version); it always evaluates to null")
        {
            if let literal = parts[1].expression.literalValue,
                literal.stringValue.flatMap(SemanticVersionComparison.init(rawValue:)) == nil
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
