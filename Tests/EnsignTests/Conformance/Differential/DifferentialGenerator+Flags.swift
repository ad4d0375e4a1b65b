/// Flags: keys, states, variants, default variants and the shape of their targeting.
extension DifferentialGenerator {
    static let plainKeys = ["new-checkout", "beta_banner", "f", "payments.limit", "darkMode", "tier", "rollout-2027"]
    static let oddKeys = [
        "my flag", "a:b", "a/b", "a@b", "ключ", "café", "emoji😀", " lead", "$ref", "日本語", "Zoë",
    ]
    static let escapedKeys = ["quote\"key", "back\\slash", "tab\tkey", "line\u{2028}sep"]

    /// A flag key: 90% plain, 7.7% with spaces, punctuation or non-ASCII, 2% needing JSON
    /// escapes, 0.3% the empty key.
    mutating func flagKey() -> String {
        switch choose([900, 77, 20, 3]) {
        case 0: return pick(Self.plainKeys)
        case 1: return pick(Self.oddKeys)
        case 2: return pick(Self.escapedKeys)
        default: return ""
        }
    }

    /// bool 35%, string 30%, int 15%, float 10%, object 10%.
    mutating func flagKind() -> FlagKind {
        [FlagKind.bool, .string, .int, .float, .object][choose([35, 30, 15, 10, 10])]
    }

    static let variantNames = [
        "on", "off", "control", "treatment", "blue", "green", "dark", "light", "pro", "free", "beta",
    ]
    static let oddVariantNames = [
        "ключ", "café", "e\u{301}te\u{301}", "😀", "a<b", "say \"hi\"", "line\nbreak", " on", "null", "1", "2",
    ]

    /// A flag of `kind`: state ENABLED 89%, DISABLED 10%, another spelling or none 1%; a
    /// default variant that is one of the variants 85.4%, absent 6%, null 5%, `""` 0.55%,
    /// naming no variant 3% (a load error flagd evaluates at run time), not a string 0.05% (a
    /// difference Ensign makes on purpose, kept rare so that it stays within the 0.1% the
    /// harness allows); targeting absent 30%, a rule 69%, an odd value (null, `{}`, a string,
    /// false, `[]`) 1%.
    mutating func makeFlag(kind: FlagKind) -> GeneratedJSON {
        let names = variantNames(kind: kind)
        var members: [(String, GeneratedJSON)] = []
        switch choose([890, 100, 5, 5]) {
        case 0: members.append(("state", .string("ENABLED")))
        case 1: members.append(("state", .string("DISABLED")))
        case 2: members.append(("state", .string(pick(["enabled", "ON", ""]))))
        default: break
        }
        let variants = names.enumerated().map { ($0.element, variantValue(kind: kind, index: $0.offset)) }
        members.append(("variants", .members(variants)))
        switch choose([8540, 600, 500, 55, 300, 5]) {
        case 0: members.append(("defaultVariant", .string(pick(names))))
        case 1: break
        case 2: members.append(("defaultVariant", .null))
        case 3: members.append(("defaultVariant", .string("")))
        case 4: members.append(("defaultVariant", .string("nope")))
        default: members.append(("defaultVariant", .bool(true)))
        }
        switch choose([30, 69, 1]) {
        case 0: break
        case 1: members.append(("targeting", targeting(variants: names)))
        default:
            members.append(("targeting", pick([.null, .members([]), .string(names[0]), .bool(false), .array([])])))
        }
        return .members(members)
    }

    /// Two to four variant names: for bool flags 20% of the time `true`/`false` (so a rule's
    /// boolean result names them); 12% of names from the odd pool (non-ASCII, escapes, digits).
    mutating func variantNames(kind: FlagKind) -> [String] {
        if kind == .bool {
            return chance(20)
                ? ["true", "false"] : (chance(85) ? ["on", "off"] : [pick(Self.oddVariantNames), "off"])
        }
        let count = 2 + Int(random.next(below: 3))
        var names: [String] = []
        while names.count < count {
            let name = chance(12) ? pick(Self.oddVariantNames) : pick(Self.variantNames)
            if !names.contains(where: { $0.unicodeScalars.elementsEqual(name.unicodeScalars) }) { names.append(name) }
        }
        if chance(1) { names[names.count - 1] = "" }
        return names
    }

    /// A value of `kind` (1% of another type); ints are 3% an integral float (`2.0`) and 2%
    /// a fractional one; objects 3% an array.
    mutating func variantValue(kind: FlagKind, index: Int) -> GeneratedJSON {
        if chance(1) { return pick([.string("true"), .int(1), .bool(true), .number("1.5"), .array([.int(1)])]) }
        switch kind {
        case .bool:
            return .bool(index == 0)
        case .string:
            return .string(pick(["blue", "green", "café", "😀", "", "line\nbreak", "quote\"d", "\u{2028}", "dark"]))
        case .int:
            switch choose([95, 3, 2]) {
            case 0: return pick([.int(1), .int(2), .int(10), .int(-5), .int(0), .int(100), .int(42)])
            case 1: return .number(pick(["2.0", "1e2", "-0.0", "1e21", "0.0"]))
            default: return .number(pick(["2.5", "0.1"]))
            }
        case .float:
            return .number(pick(["0.5", "1.25", "3", "1e-3", "-0.0", "100", "0.1", "2.0"]))
        case .object:
            if chance(3) { return .array([.int(1), .int(2)]) }
            return pick([
                .members([("color", .string("blue")), ("size", .int(3))]),
                .members([("nested", .members([("a", .array([.int(1), .number("2.5")]))]))]),
                .members([]), .members([("é", .string("accent")), ("n", .null)]),
            ])
        }
    }

    static let evaluatorNamePool = ["isStaff", "isFrench", "beta users", "adult", "is-pro", "fr.or.be"]
    static let oddEvaluatorNames = ["élevé", "😀ref"]

    /// One or two shared rules: conditions, as real `$evaluators` are; 10% of their names
    /// and 10% of their bodies use non-ASCII text.
    mutating func makeEvaluators() -> [(String, GeneratedJSON)] {
        var evaluators: [(String, GeneratedJSON)] = []
        for _ in 0..<(chance(40) ? 2 : 1) {
            let name = chance(10) ? pick(Self.oddEvaluatorNames) : pick(Self.evaluatorNamePool)
            guard !evaluators.contains(where: { $0.0.unicodeScalars.elementsEqual(name.unicodeScalars) }) else {
                continue
            }
            asciiLiterals = chance(90)
            evaluators.append((name, condition(depth: 2)))
            asciiLiterals = false
        }
        return evaluators
    }
}
