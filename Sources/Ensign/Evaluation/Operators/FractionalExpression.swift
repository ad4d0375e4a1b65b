/// A compiled flagd `fractional`: deterministic, weighted bucketing of subjects into variants.
///
/// The bucketing key (by default the flag key followed by the targeting key; otherwise the
/// text of the first argument's expression) is hashed with ``MurmurHash3`` (seed 0), and the hash
/// picks a bucket in proportion to the weights (``FractionalHashing`` says how). The chosen
/// bucket's variant is evaluated and returned: a string, boolean, number or `null`.
///
/// Evaluates to `null`, as flagd does, when there is no targeting key to bucket by, when a weight
/// is not a whole number (v2) or not a number, when the weights add up to zero or beyond
/// `Int32.max`, or when the chosen variant is an array or object. Negative weights count as zero.
final class FractionalExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    /// One `[variant, weight]` bucket; a missing or `null` weight counts as 1.
    struct Bucket: Sendable {
        let variant: Expression
        let weight: Expression?
    }

    /// Where the bucketing key comes from.
    enum Bucketing: Sendable {
        /// flagd's default: flag key followed by targeting key.
        case flagAndTargetingKey
        /// An expression; when it does not give a string, the default key is used instead.
        case expression(Expression)
    }

    /// The bucketing expression; `nil` for flagd's default key.
    let bucketingExpression: Expression?
    let buckets: [Bucket]
    let hashing: FractionalHashing
    /// The weights (negative ones as zero), when every weight is a literal.
    let constantWeights: [Int]?
    let constantTotal: Int
    /// The variants, when every variant is a literal that may be returned.
    let constantVariants: [JSONValue]?

    init(bucketing: Bucketing, buckets: [Bucket], hashing: FractionalHashing) {
        if case .expression(let expression) = bucketing {
            bucketingExpression = expression
        } else {
            bucketingExpression = nil
        }
        self.buckets = buckets
        self.hashing = hashing
        let variants = buckets.compactMap { bucket -> JSONValue? in
            switch bucket.variant.literalValue {
            case .none, .array?, .object?: return .none
            case let value?: return value
            }
        }
        constantVariants = variants.count == buckets.count ? variants : nil
        var weights: [Int]? = []
        for bucket in buckets {
            var literal: JSONValue?
            if let expression = bucket.weight {
                guard let value = expression.literalValue else {
                    weights = nil
                    break
                }
                literal = value
            }
            guard let weight = Self.weight(literal, hashing: hashing) else {
                weights = nil
                break
            }
            weights?.append(weight)
        }
        let total = weights?.reduce(0, +) ?? 0
        constantWeights = total <= Int(Int32.max) ? weights : nil
        constantTotal = total
    }

    /// A bucket's weight from its evaluated value (`nil` for a missing weight), or `nil` when
    /// it makes the whole `fractional` fail.
    static func weight(_ value: JSONValue?, hashing: FractionalHashing) -> Int? {
        let number: Double
        switch value {
        case .none, .null?: return 1
        case .int(let integer)?: number = Double(integer)
        case .double(let double)?: number = double
        default: return nil
        }
        guard number.isFinite else { return nil }
        let whole = number.rounded(.towardZero)
        if hashing == .v2, whole != number { return nil }
        if whole < 0 { return 0 }
        return whole <= Double(Int32.max) ? Int(whole) : nil
    }

    /// The index of the bucket `hash` falls in, or `nil` when the total weight is zero.
    static func bucketIndex(hash: UInt32, weights: [Int], total: Int, hashing: FractionalHashing) -> Int? {
        guard total > 0 else { return nil }
        switch hashing {
        case .v2:
            let point = (UInt64(hash) * UInt64(total)) >> 32
            var end: UInt64 = 0
            for (index, weight) in weights.enumerated() {
                end += UInt64(weight)
                if point < end { return index }
            }
        case .v1:
            let point = abs(Double(Int32(bitPattern: hash))) / Double(Int32.max) * 100
            var end = 0.0
            for (index, weight) in weights.enumerated() {
                end += 100 * Double(weight) / Double(total)
                if point < end { return index }
            }
        }
        return nil
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        var hash: UInt32?
        if let bucketingExpression, case .string(let key) = try bucketingExpression.evaluate(in: scope, environment) {
            hash = MurmurHash3.hash(key)
        }
        guard let hash = hash ?? environment.defaultBucketingHash() else { return .null }
        let index: Int?
        if let constantWeights {
            index = Self.bucketIndex(hash: hash, weights: constantWeights, total: constantTotal, hashing: hashing)
        } else {
            var weights: [Int] = []
            weights.reserveCapacity(buckets.count)
            var total = 0
            for bucket in buckets {
                guard let weight = Self.weight(try bucket.weight?.evaluate(in: scope, environment), hashing: hashing)
                else { return .null }
                weights.append(weight)
                total += weight
                guard total <= Int(Int32.max) else { return .null }
            }
            index = Self.bucketIndex(hash: hash, weights: weights, total: total, hashing: hashing)
        }
        guard let index else { return .null }
        if let constantVariants { return constantVariants[index] }
        let variant = try buckets[index].variant.evaluate(in: scope, environment)
        switch variant {
        case .array, .object: return .null
        default: return variant
        }
    }
}
