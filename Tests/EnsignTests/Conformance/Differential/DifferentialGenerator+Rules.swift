/// Targeting rules: every JsonLogic operator flagd supports and flagd's own, mostly in the
/// shapes real flag files use them, sometimes in shapes only a fuzzer would write.
extension DifferentialGenerator {
    /// A flag's `targeting`: `if` over conditions 45%, `fractional` 15%, `fractional` inside an
    /// `if` 10%, an expression whose string names a variant 10%, a bare condition 7% (the
    /// result `true`/`false` names a variant), a `$ref` 5% (when the set has evaluators), an
    /// arithmetic result 3%, any expression 5%, an `if` over a corner (``corner(depth:)``) 3%.
    mutating func targeting(variants: [String]) -> GeneratedJSON {
        switch choose([45, 15, 10, 10, 7, 5, 3, 5, 3]) {
        case 0: return ifRule(variants: variants)
        case 1: return fractional(variants: variants)
        case 2:
            return .operation(
                "if", .array([condition(depth: 2), fractional(variants: variants), variantName(variants)]))
        case 3: return stringValue(depth: 2, variants: variants)
        case 4: return condition(depth: 2)
        case 5 where !evaluatorNames.isEmpty: return reference()
        case 6: return .operation(pick(["+", "-", "*"]), .array([.operation("var", "ratio"), .int(1)]))
        case 7: return value(depth: 3)
        default:
            return .operation("if", .array([corner(depth: 1), variantName(variants), variantName(variants)]))
        }
    }

    /// `{"if": [condition, variant, (condition, variant,) else?]}`; 6% of the variants named
    /// are null or name no variant, 12% have no else.
    mutating func ifRule(variants: [String]) -> GeneratedJSON {
        var arguments = [condition(depth: 3), variantName(variants)]
        if chance(30) { arguments += [condition(depth: 2), variantName(variants)] }
        if chance(88) { arguments.append(variantName(variants)) }
        return .operation(chance(95) ? "if" : "?:", .array(arguments))
    }

    mutating func variantName(_ variants: [String]) -> GeneratedJSON {
        switch choose([94, 3, 3]) {
        case 0: return .string(pick(variants))
        case 1: return .null
        default: return .string("no-such-variant")
        }
    }

    /// `fractional`: bucketing by the targeting key 70%, by an expression 20%, by a literal
    /// 10% (the empty string and null among them); two to four buckets whose whole weights sum
    /// to 100, each bucket 5% of the time with one of flagd's odd weights (50.0, null, 12.5,
    /// "50", negative, zero), 2% with a third element and 2% with no weight.
    mutating func fractional(variants: [String]) -> GeneratedJSON {
        var arguments: [GeneratedJSON] = []
        switch choose([70, 10, 10, 10]) {
        case 0: break
        case 1:
            arguments.append(
                .operation("cat", .array([.operation("var", "$flagd.flagKey"), .operation("var", "email")])))
        case 2: arguments.append(.operation("var", .string(pick(["email", "age", "user.id", "tags", "missingAttr"]))))
        default: arguments.append(pick([.string("bucket-a"), .string(""), .null, .string("😀"), .int(42)]))
        }
        let count = min(variants.count, 2 + Int(random.next(below: 3)))
        let split = Self.splits[count] ?? [100]
        for (index, name) in variants.prefix(count).enumerated() {
            var bucket: [GeneratedJSON] = [.string(name), .int(split[index])]
            if chance(5) {
                bucket[1] = pick([.number("50.0"), .null, .number("12.5"), .string("50"), .int(-10), .int(0)])
            }
            if chance(2) { bucket.append(.int(1)) }
            if chance(2) { bucket.removeLast() }
            arguments.append(.array(bucket))
        }
        return .operation("fractional", .array(arguments))
    }

    static let splits: [Int: [Int]] = [1: [100], 2: [50, 50], 3: [34, 33, 33], 4: [25, 25, 25, 25]]

    mutating func reference() -> GeneratedJSON {
        .operation("$ref", .string(chance(94) ? pick(evaluatorNames) : "no-such-evaluator"))
    }

    /// A boolean-ish expression, as rules' conditions are; relative weights: `==`/`!=`/`===`/`!==`
    /// 20, `in` 15, `starts_with`/`ends_with` 8, `sem_ver` 8, `<`/`<=`/`>`/`>=` 12, `and`/`or` 10,
    /// `!`/`!!` 5, `some`/`all`/`none`/`filter` 6, `missing`/`missing_some` 4, `$ref` 3, a nested
    /// `if` 3, a bare boolean or `var` 4, a corner 4 (the nesting ones only while depth remains).
    mutating func condition(depth: Int) -> GeneratedJSON {
        let index = choose([20, 15, 8, 8, 12, depth > 0 ? 10 : 0, 5, depth > 0 ? 6 : 0, 4, 3, depth > 0 ? 3 : 0, 4, 4])
        switch index {
        case 0:
            let name = pick(["==", "!=", "===", "!=="])
            // 30% compare a computed value (arithmetic, cat, substr, reduce, ...).
            let left = chance(70) ? attribute() : value(depth: 2)
            return .operation(name, .array([left, literal()].shuffledPair(chance(15))))
        case 1:
            if chance(70) { return .operation("in", .array([attribute(), .array((0..<3).map { _ in literal() })])) }
            return .operation("in", .array([.string(pick(["bforbank", "@", "", "é", "FR"])), attribute()]))
        case 2:
            let email = chance(80) ? GeneratedJSON.operation("var", "email") : attribute()
            let affix = GeneratedJSON.string(pick(["@bforbank.example", "ann", "", "É", "x"]))
            return .operation(pick(["starts_with", "ends_with"]), .array(chance(95) ? [email, affix] : [email]))
        case 3:
            let version = chance(85) ? GeneratedJSON.operation("var", "version") : attribute()
            let target = GeneratedJSON.string(pick(["1.2.3", "2.0.0", "v1.0.0", "1.2", "1.0.0-rc.1", "1.2-beta"]))
            return .operation(
                "sem_ver", .array([version, .string(pick(["=", "!=", "<", "<=", ">", ">=", "^", "~"])), target]))
        case 4:
            // 30% compare a computed value.
            let left: GeneratedJSON
            switch choose([55, 15, 30]) {
            case 0: left = .operation("var", "age")
            case 1: left = attribute()
            default: left = value(depth: 2)
            }
            var operands = [left, number()]
            if chance(10) { operands = [number(), operands[0], number()] }
            return .operation(pick(["<", "<=", ">", ">="]), .array(operands))
        case 5:
            let count = 2 + Int(random.next(below: 2))
            return .operation(pick(["and", "or"]), .array((0..<count).map { _ in condition(depth: depth - 1) }))
        case 6:
            return .operation(pick(["!", "!!"]), chance(70) ? .array([condition(depth: 0)]) : attribute())
        case 7:
            return iteration(depth: depth)
        case 8:
            let keys = GeneratedJSON.array((0..<2).map { _ in .string(pick(Self.attributePaths)) })
            if chance(50) { return .operation("!", .array([.operation("missing", keys)])) }
            return .operation("missing_some", .array([.int(1), keys]))
        case 9 where !evaluatorNames.isEmpty:
            return reference()
        case 10:
            return .operation("if", .array([condition(depth: depth - 1), condition(depth: 0), condition(depth: 0)]))
        case 11:
            return chance(50) ? .operation("var", "beta") : .bool(chance(50))
        default:
            return corner(depth: depth)
        }
    }

    /// `some`/`all`/`none` (and `filter`, whose array is truthy when not empty) over the
    /// context's arrays, a literal array, or a scalar.
    mutating func iteration(depth: Int) -> GeneratedJSON {
        let subject: GeneratedJSON
        let predicate: GeneratedJSON
        switch choose([45, 35, 10, 10]) {
        case 0:
            subject = .operation("var", "tags")
            predicate = .operation("==", .array([.operation("var", ""), .string(pick(["beta", "vip", "a"]))]))
        case 1:
            subject = .operation("var", "items")
            predicate = .operation(pick([">", "==", "<"]), .array([.operation("var", "k"), number()]))
        case 2:
            subject = .array([.int(1), .int(2), .int(3)])
            predicate = .operation(">", .array([.operation("var", ""), .operation("var", "ratio")]))
        default:
            subject = attribute()
            predicate = condition(depth: 0)
        }
        let name = pick(["some", "all", "none", "some", "filter"])
        return .operation(name, .array(chance(97) ? [subject, predicate] : [subject]))
    }

    /// Any value expression: a context attribute 25%, a literal 15%, arithmetic 25%, `cat` 10%,
    /// `substr` 7%, `merge` 4%, `map`/`filter`/`reduce` 7%, `if`/`?:` 4%, `missing` 3%, a corner 4%
    /// (relative weights, summing to 104).
    mutating func value(depth: Int) -> GeneratedJSON {
        guard depth > 0 else { return chance(60) ? attribute() : literal() }
        switch choose([25, 15, 25, 10, 7, 4, 7, 4, 3, 4]) {
        case 0: return attribute()
        case 1: return literal()
        case 2:
            let name = pick(["+", "-", "*", "/", "%", "min", "max"])
            let count = name == "/" || name == "%" ? 2 : 1 + Int(random.next(below: 3))
            return .operation(name, .array((0..<count).map { _ in chance(60) ? number() : value(depth: depth - 1) }))
        case 3:
            return .operation(
                "cat", .array((0..<(1 + Int(random.next(below: 3)))).map { _ in value(depth: depth - 1) }))
        case 4: return substring(depth: depth)
        case 5: return .operation("merge", .array([.operation("var", "tags"), value(depth: depth - 1)]))
        case 6: return mapping(depth: depth)
        case 7:
            return .operation(
                chance(80) ? "if" : "?:",
                .array([condition(depth: 1), value(depth: depth - 1), value(depth: depth - 1)]))
        case 8: return .operation("missing", .array([.string(pick(Self.attributePaths)), .string("email")]))
        default: return corner(depth: depth - 1)
        }
    }

    mutating func substring(depth: Int) -> GeneratedJSON {
        var arguments = [
            chance(70) ? GeneratedJSON.operation("var", .string(pick(["name", "email", "plan"]))) : value(depth: 0)
        ]
        arguments.append(.int(pick([0, 1, 2, -3, 10])))
        if chance(60) { arguments.append(.int(pick([1, 2, 3, -1, -5]))) }
        return .operation("substr", .array(arguments))
    }

    mutating func mapping(depth: Int) -> GeneratedJSON {
        switch choose([40, 30, 30]) {
        case 0:
            return .operation("map", .array([.operation("var", "items"), .operation("var", "k")]))
        case 1:
            let predicate = GeneratedJSON.operation(">", .array([.operation("var", "k"), .int(1)]))
            return .operation("filter", .array([.operation("var", "items"), predicate]))
        default:
            let sum = GeneratedJSON.operation(
                "+", .array([.operation("var", "accumulator"), .operation("var", "current")]))
            let initial = pick([GeneratedJSON.int(0), .int(10), .string(""), .null])
            return .operation(
                "reduce", .array([chance(70) ? .array([.int(1), .int(2), .int(3)]) : attribute(), sum, initial]))
        }
    }

    /// A string-valued expression whose result is meant to name a variant.
    mutating func stringValue(depth: Int, variants: [String]) -> GeneratedJSON {
        switch choose([40, 30, 15, 15]) {
        case 0: return .operation("var", .string(chance(70) ? "plan" : pick(Self.attributePaths)))
        case 1:
            return .operation(
                "cat",
                .array([.string(String(pick(variants).prefix(2))), .string(String(pick(variants).dropFirst(2)))]))
        case 2: return .operation("substr", .array([.string(pick(variants) + "xyz"), .int(0), .int(-3)]))
        default:
            return .operation("if", .array([condition(depth: 1), .operation("var", "plan"), value(depth: depth - 1)]))
        }
    }

    static let literalStrings = [
        "FR", "BE", "pro", "free", "beta", "ann@bforbank.example", "42", "18", "", " 42", "é", "e\u{301}", "Zoë", "😀",
        "true", "1.2.3", "abc", "ключ",
    ]

    static let attributePaths = [
        "email", "country", "age", "plan", "tags", "user.address.country", "user.id", "version", "beta", "score",
        "items", "name", "ratio", "targetingKey", "$flagd.flagKey", "missingAttr", "tags.0", "tags.length",
        "ключ", "user.name", "a.b", "age.x", "name.0", "user..id",
    ]

    /// A `var` (5% with a default, 2% the whole context or a null path).
    mutating func attribute() -> GeneratedJSON {
        switch choose([93, 5, 1, 1]) {
        case 0: return .operation("var", .string(pick(Self.attributePaths)))
        case 1: return .operation("var", .array([.string(pick(Self.attributePaths)), literal()]))
        case 2: return .operation("var", .string(""))
        default: return .operation("var", .null)
        }
    }

    mutating func number() -> GeneratedJSON {
        .number(pick(["0", "1", "2", "18", "42", "65", "-1", "0.5", "18.0", "99.99", "1e3", "9007199254740993"]))
    }

    /// A literal operand: strings 55% (some numeric, some non-ASCII), numbers 30%, the rest
    /// booleans, null and arrays.
    mutating func literal() -> GeneratedJSON {
        switch choose([55, 30, 7, 4, 4]) {
        case 0:
            let text = pick(Self.literalStrings)
            return .string(asciiLiterals && !text.unicodeScalars.allSatisfy(\.isASCII) ? "FR" : text)
        case 1: return number()
        case 2: return .bool(chance(50))
        case 3: return .null
        default: return .array([.string("beta"), .int(1)])
        }
    }
}

extension Array where Element == GeneratedJSON {
    /// The pair reversed when `reversed` (a literal on the left, as some rules are written).
    func shuffledPair(_ reversed: Bool) -> [GeneratedJSON] { reversed ? self.reversed() : self }
}
