extension TargetingCompiler {
    /// Compiles flagd's `fractional`: `[bucketing expression?, [variant, weight?], …]`.
    mutating func compileFractional(_ argument: JSONValue, _ arguments: [Argument], at path: Path) -> Compiled {
        guard case .array = argument else {
            report(
                .error, at: path,
                "'fractional' takes an array: an optional bucketing expression, then [variant, weight] buckets")
            return .computed(.literal(.null), mayReturnStrings: false)
        }
        var bucketing = FractionalExpression.Bucketing.flagAndTargetingKey
        var bucketArguments = arguments[...]
        if let first = arguments.first {
            switch first.value {
            case .array:
                break
            case .null:
                bucketArguments.removeFirst()
            case .string(let key):
                report(
                    .warning, at: first.path,
                    "the bucketing key \"\(key)\" is a constant, so every subject lands in the same bucket; use an expression such as {\"var\": \"email\"}"
                )
                bucketing = .expression(.literal(first.value))
                bucketArguments.removeFirst()
            case .object(let members) where members.count == 1:
                bucketing = .expression(compile(first.value, at: first.path).expression)
                bucketArguments.removeFirst()
            default:
                report(
                    .error, at: first.path,
                    "the first element of 'fractional' must be a bucketing expression such as {\"var\": \"email\"} or a [variant, weight] bucket, not \(first.value.jsonText)"
                )
                bucketArguments.removeFirst()
            }
        }
        guard !bucketArguments.isEmpty else {
            report(.error, at: path, "'fractional' needs at least one [variant, weight] bucket")
            return .computed(.literal(.null), mayReturnStrings: false)
        }
        var buckets: [FractionalExpression.Bucket] = []
        var variants: [Compiled] = []
        for bucket in bucketArguments {
            guard let compiled = compileBucket(bucket) else { continue }
            buckets.append(compiled.bucket)
            variants.append(compiled.variant)
        }
        let literalWeights = buckets.map { bucket in
            bucket.weight.map {
                $0.literalValue.flatMap { FractionalExpression.weight($0, hashing: options.fractionalHashing) }
            } ?? 1
        }
        if !buckets.isEmpty, !literalWeights.contains(nil) {
            let total = literalWeights.reduce(0) { $0 + ($1 ?? 0) }
            if total == 0 {
                report(.warning, at: path, "every 'fractional' weight is zero, so it always evaluates to null")
            } else if total > Int(Int32.max) {
                report(.error, at: path, "the 'fractional' weights add up to \(total), more than \(Int32.max)")
            }
        }
        let node = FractionalExpression(bucketing: bucketing, buckets: buckets, hashing: options.fractionalHashing)
        return .oneOf(node, variants)
    }

    private mutating func compileBucket(_ bucket: Argument) -> (bucket: FractionalExpression.Bucket, variant: Compiled)?
    {
        guard case .array(let items) = bucket.value else {
            report(
                .error, at: bucket.path,
                "a 'fractional' bucket must be an array [variant, weight], not \(bucket.value.jsonText)")
            return nil
        }
        guard !items.isEmpty else {
            report(.error, at: bucket.path, "a 'fractional' bucket needs a variant: [variant, weight]")
            return nil
        }
        if items.count > 2 {
            report(
                .warning, at: bucket.path + [.index(2)],
                "a 'fractional' bucket is [variant, weight]; extra elements are ignored")
        }
        let variant = compile(items[0], at: bucket.path + [.index(0)])
        switch variant.expression.literalValue {
        case .array?, .object?:
            report(
                .error, at: bucket.path + [.index(0)],
                "a 'fractional' variant must be a string, boolean, number or null")
        default:
            break
        }
        var weight: Expression?
        if items.count > 1 {
            let weightPath = bucket.path + [.index(1)]
            weight = compile(items[1], at: weightPath).expression
            if let literal = weight?.literalValue { checkWeight(literal, at: weightPath) }
        }
        return (FractionalExpression.Bucket(variant: variant.expression, weight: weight), variant)
    }

    private mutating func checkWeight(_ weight: JSONValue, at path: Path) {
        guard weight.isNumber || weight.isNull else {
            report(.error, at: path, "a 'fractional' weight must be a number, not \(weight.jsonText)")
            return
        }
        let number = weight.numericValue ?? 1
        if number.rounded(.towardZero) != number || !number.isFinite {
            if options.fractionalHashing == .v2 {
                report(
                    .error, at: path,
                    "'fractional' weights must be whole numbers (they are relative: use 125 and 875 for 12.5% and 87.5%)"
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
            report(.error, at: path, "a 'fractional' weight may not exceed \(Int32.max)")
        }
    }
}
