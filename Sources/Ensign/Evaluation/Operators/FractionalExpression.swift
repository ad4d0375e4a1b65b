/// A compiled flagd `fractional`: deterministic, weighted bucketing of subjects into variants,
/// read exactly as flagd's Go evaluator reads it (`core/pkg/evaluator/fractional.go`).
///
/// flagd evaluates every argument first, then reads them:
/// - When the first one is a string, it is the bucketing key, hashed as it is (no flag-key
///   prefix), and the others are the buckets.
/// - Otherwise the key is the flag key followed by the targeting key (no separator), and a
///   first argument that is `null` (a missing `var`, say) is dropped; any other first argument
///   stays in place and is read as a bucket, so a number, a boolean or an object there makes
///   the whole `fractional` `null`. Without a targeting key (absent, not a string, or empty)
///   the result is `null`.
/// - A bucket is `[variant, weight]`: the variant a string, boolean, number or `null`; the
///   weight a number (`null` or absent count as 1; elements after it are ignored). v2 weights
///   must be whole numbers (`50.0` is one; `12.5` and `"50"` are not), at most `Int32.max`
///   each and in total; negative weights count as 0.
///
/// Any failure — a bucket that is not an array, a weight that does not fit, all-zero weights —
/// makes the result `null`, never an error: flagd reads it as "no match" (`DEFAULT` at the top
/// of a rule, falsy inside `if`).
///
/// The key is hashed with ``MurmurHash3`` (seed 0), and ``FractionalHashing`` says how the hash
/// picks a bucket. Literal arguments are read once, when the rule is compiled.
final class FractionalExpression: Expression, @unchecked Sendable {  // immutable: see Expression
    /// Buckets read from their values: variants and weights, in order.
    struct Distribution: Sendable {
        let variants: [JSONValue]
        let weights: [UInt64]
        let total: UInt64

        /// flagd's `parseFractionalEvaluationDistributions`: `nil` when any bucket is malformed,
        /// a weight does not fit, or the weights add up to more than `Int32.max`.
        init?(_ buckets: ArraySlice<JSONValue>, hashing: FractionalHashing) {
            var variants: [JSONValue] = []
            var weights: [UInt64] = []
            variants.reserveCapacity(buckets.count)
            weights.reserveCapacity(buckets.count)
            var total: UInt64 = 0
            for bucket in buckets {
                guard case .array(let items) = bucket, let variant = items.first else { return nil }
                switch variant {
                case .array, .object: return nil
                default: variants.append(variant)
                }
                guard let weight = FractionalExpression.weight(items.count > 1 ? items[1] : .none, hashing: hashing)
                else { return nil }
                weights.append(weight)
                total += weight
                guard total <= UInt64(Int32.max) else { return nil }
            }
            self.variants = variants
            self.weights = weights
            self.total = total
        }

        /// The variant the hash falls on; `null` when every weight is zero.
        func variant(for hash: UInt32, hashing: FractionalHashing) -> JSONValue {
            guard total > 0 else { return .null }
            switch hashing {
            case .v2:
                let point = (UInt64(hash) * total) >> 32
                var end: UInt64 = 0
                for index in weights.indices {
                    end += weights[index]
                    if point < end { return variants[index] }
                }
            case .v1:
                let point = abs(Double(Int32(bitPattern: hash))) / Double(Int32.max) * 100
                var end = 0.0
                for index in weights.indices {
                    end += 100 * Double(weights[index]) / Double(total)
                    if point < end { return variants[index] }
                }
            }
            return .null
        }
    }

    /// A bucket list known at compile time: read once, or `nil` when some bucket is computed.
    enum Prepared: Sendable {
        case computed
        case read(Distribution?)
    }

    /// The arguments as written, compiled; `nil` when the whole argument is one expression
    /// (`{"fractional": {"var": "buckets"}}`), whose value is read as the argument list.
    let arguments: [Expression]?
    let computedArguments: Expression?
    let hashing: FractionalHashing
    /// The first argument's hash, when it is a literal string.
    let constantKeyHash: UInt32?
    /// `arguments[1...]` as buckets, and all the arguments as buckets.
    let tail: Prepared
    let whole: Prepared
    /// `arguments[1...]`'s values, when they are all literals.
    let literalTail: [JSONValue]?

    /// A `fractional` whose arguments are `arguments` (at least one).
    init(arguments: [Expression], hashing: FractionalHashing) {
        self.arguments = arguments
        computedArguments = nil
        self.hashing = hashing
        let literals = arguments.literalValues
        literalTail = literals.map { Array($0.dropFirst()) } ?? arguments.dropFirst().literalValues
        tail = literalTail.map { .read(Distribution($0[...], hashing: hashing)) } ?? .computed
        whole = literals.map { .read(Distribution($0[...], hashing: hashing)) } ?? .computed
        if case .string(let key)? = arguments.first?.literalValue {
            constantKeyHash = MurmurHash3.hash(key)
        } else {
            constantKeyHash = nil
        }
    }

    /// A `fractional` whose argument list is the value of `expression`.
    init(computedArguments expression: Expression, hashing: FractionalHashing) {
        arguments = nil
        computedArguments = expression
        self.hashing = hashing
        constantKeyHash = nil
        tail = .computed
        whole = .computed
        literalTail = nil
    }

    /// A bucket's weight from its value (`nil` when it has none), as a whole number, or `nil`
    /// when it makes the whole `fractional` fail.
    static func weight(_ value: JSONValue?, hashing: FractionalHashing) -> UInt64? {
        let number: Double
        switch value {
        case .none, .null?: return 1
        case .int(let integer)?: number = Double(integer)
        case .double(let double)?: number = double
        default: return nil
        }
        guard number.isFinite else { return nil }
        let whole = number.rounded(.towardZero)
        // v2 converts the weight to a 64-bit integer and refuses it unless that is exact.
        if hashing == .v2, whole != number || whole < -0x1p63 || whole >= 0x1p63 { return nil }
        guard whole <= Double(Int32.max) else { return nil }
        return whole < 0 ? 0 : UInt64(whole)
    }

    override func evaluate(in scope: Scope, _ environment: EvaluationEnvironment) throws(EvaluationFailure)
        -> JSONValue
    {
        guard let arguments else {
            // The argument list is computed: flagd reads its value as the list.
            guard case .array(let values) = try computedArguments?.evaluate(in: scope, environment) ?? .null
            else { return .null }
            return read(values, in: environment)
        }
        // flagd evaluates every argument before reading any; literals need no evaluation.
        guard case .read = tail else {
            var values: [JSONValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try argument.evaluate(in: scope, environment)) }
            return read(values, in: environment)
        }
        let first = try arguments[0].evaluate(in: scope, environment)
        let hash: UInt32
        let prepared: Prepared
        switch first {
        case .string(let key):
            hash = constantKeyHash ?? MurmurHash3.hash(key)
            prepared = tail
        case .null:
            guard let targetingHash = environment.defaultBucketingHash() else { return .null }
            hash = targetingHash
            prepared = tail
        default:
            // Neither a key nor null: flagd reads it as the first bucket.
            guard let targetingHash = environment.defaultBucketingHash() else { return .null }
            hash = targetingHash
            prepared = whole
        }
        switch prepared {
        case .read(let distribution):
            return distribution?.variant(for: hash, hashing: hashing) ?? .null
        case .computed:
            guard let distribution = Distribution([first] + (literalTail ?? []), hashing: hashing) else { return .null }
            return distribution.variant(for: hash, hashing: hashing)
        }
    }

    /// Reads evaluated arguments as flagd's `parseFractionalEvaluationData` does.
    private func read(_ values: [JSONValue], in environment: EvaluationEnvironment) -> JSONValue {
        guard let first = values.first else { return .null }
        let hash: UInt32
        var buckets = values[...]
        switch first {
        case .string(let key):
            hash = MurmurHash3.hash(key)
            buckets = values.dropFirst()
        case .null:
            guard let targetingHash = environment.defaultBucketingHash() else { return .null }
            hash = targetingHash
            buckets = values.dropFirst()
        default:
            guard let targetingHash = environment.defaultBucketingHash() else { return .null }
            hash = targetingHash
        }
        guard let distribution = Distribution(buckets, hashing: hashing) else { return .null }
        return distribution.variant(for: hash, hashing: hashing)
    }
}
