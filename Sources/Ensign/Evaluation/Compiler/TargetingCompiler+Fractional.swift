extension TargetingCompiler {
    /// Compiles flagd's `fractional`: `[bucketing key?, [variant, weight?], …]`.
    ///
    /// Nothing about `fractional` is an error: flagd evaluates a malformed one to `null`, so a
    /// problem seen here is a warning saying so, and the rule still compiles.
    mutating func compileFractional(_ argument: RuleTree, _ arguments: [Argument], at path: Path) -> Compiled {
        guard argument.isArray else {
            if case .operation = argument {
                // flagd evaluates the operation and reads its value as the argument list.
                let list = compile(argument, at: path)
                var compiled = Compiled.computed(
                    FractionalExpression(computedArguments: list.expression, hashing: options.fractionalHashing),
                    mayReturnStrings: true)
                compiled.mayReturnOtherStrings = true
                return compiled
            }
            report(
                .warning, at: path,
                "'fractional' takes an array (an optional bucketing key, then [variant, weight] buckets), not \(argument.value.jsonText); it always evaluates to null"
            )
            return .computed(.literal(.null), mayReturnStrings: false)
        }
        guard let first = arguments.first else {
            report(
                .warning, at: path,
                "'fractional' needs at least one [variant, weight] bucket; it always evaluates to null")
            return .computed(.literal(.null), mayReturnStrings: false)
        }
        var expressions: [Expression] = []
        expressions.reserveCapacity(arguments.count)
        var variants: [Compiled] = []
        var mayReturnOtherStrings = false
        var buckets = arguments[...]
        switch first.value {
        case .array, .values:
            break
        case .scalar(.null):
            buckets.removeFirst()
            expressions.append(.literal(.null))
        case .scalar(.string(let key)):
            report(
                .warning, at: first.path,
                "the bucketing key \"\(key)\" is a constant, so every subject lands in the same bucket; use an expression such as {\"var\": \"email\"}"
            )
            buckets.removeFirst()
            expressions.append(.literal(first.value.value))
        case .operation:
            // A string bucketing key, or null for the targeting key; another value is read as a bucket.
            expressions.append(compile(first.value, at: first.path).expression)
            buckets.removeFirst()
            mayReturnOtherStrings = true
        default:
            report(
                .warning, at: first.path,
                "the first element of 'fractional' is \(first.value.value.jsonText), neither a bucketing key nor a [variant, weight] bucket; flagd reads it as a bucket, so 'fractional' always evaluates to null"
            )
            buckets.removeFirst()
            expressions.append(.literal(first.value.value))
        }
        if buckets.isEmpty {
            report(
                .warning, at: path,
                "'fractional' needs at least one [variant, weight] bucket; it always evaluates to null")
        }
        var literalWeights: [UInt64]? = []
        literalWeights?.reserveCapacity(buckets.count)
        variants.reserveCapacity(buckets.count)
        for bucket in buckets {
            let compiled = compileBucket(bucket)
            expressions.append(compiled.expression)
            if let variant = compiled.variant { variants.append(variant) }
            if compiled.variant?.mayReturnOtherStrings ?? !compiled.expression.isLiteral {
                mayReturnOtherStrings = true
            }
            if let weight = compiled.literalWeight, literalWeights != nil {
                literalWeights?.append(weight)
            } else {
                literalWeights = nil
            }
        }
        if let literalWeights, !literalWeights.isEmpty {
            let total = literalWeights.reduce(0, +)
            if total == 0 {
                report(.warning, at: path, "every 'fractional' weight is zero, so it always evaluates to null")
            } else if total > UInt64(Int32.max) {
                report(
                    .warning, at: path,
                    "the 'fractional' weights add up to \(total), more than \(Int32.max); it always evaluates to null")
            }
        }
        var compiled = oneOf(
            FractionalExpression(arguments: expressions, hashing: options.fractionalHashing), variants)
        compiled.mayReturnOtherStrings = compiled.mayReturnOtherStrings || mayReturnOtherStrings
        return compiled
    }

    /// A compiled bucket: its expression, its variant (when it is written out as an array), and
    /// its weight when that is a literal that fits.
    private struct CompiledBucket {
        var expression: Expression
        var variant: Compiled?
        var literalWeight: UInt64?
    }

    private mutating func compileBucket(_ bucket: Argument) -> CompiledBucket {
        if case .values(let values) = bucket.value, (1...2).contains(values.count), depth < Self.maximumDepth {
            // Plain values, the usual `["on", 25]`: the bucket is the literal it is written as,
            // and only the variant is compiled (for the results it adds).
            let variant = compile(.scalar(values[0]), at: bucket.path.appending(.index(0)))
            let literalWeight = values.count > 1 ? checkWeight(values[1], at: bucket.path.appending(.index(1))) : 1
            return CompiledBucket(expression: .literal(.array(values)), variant: variant, literalWeight: literalWeight)
        }
        guard let items = bucket.value.elements else {
            let compiled = compile(bucket.value, at: bucket.path)
            if compiled.expression.isLiteral {
                report(
                    .warning, at: bucket.path,
                    "a 'fractional' bucket must be an array [variant, weight], not \(bucket.value.value.jsonText); 'fractional' always evaluates to null"
                )
            }
            return CompiledBucket(expression: compiled.expression, variant: nil, literalWeight: nil)
        }
        guard !items.isEmpty else {
            report(
                .warning, at: bucket.path,
                "a 'fractional' bucket needs a variant: [variant, weight]; 'fractional' always evaluates to null")
            return CompiledBucket(expression: .literal(bucket.value.value), variant: nil, literalWeight: nil)
        }
        if items.count > 2 {
            report(
                .warning, at: bucket.path.appending(.index(2)),
                "a 'fractional' bucket is [variant, weight]; extra elements are ignored")
        }
        let parts = items.indices.map { compile(items[$0], at: bucket.path.appending(.index($0))) }
        switch parts[0].expression.literalValue {
        case .array?, .object?:
            report(
                .warning, at: bucket.path.appending(.index(0)),
                "a 'fractional' variant must be a string, boolean, number or null; 'fractional' always evaluates to null"
            )
        default:
            break
        }
        var literalWeight: UInt64? = 1
        if parts.count > 1 {
            let weightPath = bucket.path.appending(.index(1))
            if let literal = parts[1].expression.literalValue {
                literalWeight = checkWeight(literal, at: weightPath)
            } else {
                literalWeight = nil
            }
        }
        return CompiledBucket(expression: Self.array(of: parts), variant: parts[0], literalWeight: literalWeight)
    }

    /// Reports a literal weight flagd refuses (or changes); returns the weight it counts.
    private mutating func checkWeight(_ weight: JSONValue, at path: Path) -> UInt64? {
        let consequence = "'fractional' always evaluates to null"
        guard weight.isNumber || weight.isNull else {
            report(.warning, at: path, "a 'fractional' weight must be a number, not \(weight.jsonText); \(consequence)")
            return nil
        }
        let number = weight.numericValue ?? 1
        if number.rounded(.towardZero) != number || !number.isFinite {
            if options.fractionalHashing == .v2 {
                report(
                    .warning, at: path,
                    "'fractional' weights must be whole numbers (they are relative: use 125 and 875 for 12.5% and 87.5%); \(consequence)"
                )
            } else {
                report(
                    .warning, at: path,
                    "v1 'fractional' hashing truncates the weight \(weight.jsonText) to a whole number")
            }
        }
        if number < 0 {
            report(.warning, at: path, "a negative 'fractional' weight counts as 0")
        } else if number > Double(Int32.max) {
            report(.warning, at: path, "a 'fractional' weight may not exceed \(Int32.max); \(consequence)")
        }
        return FractionalExpression.weight(weight, hashing: options.fractionalHashing)
    }
}
