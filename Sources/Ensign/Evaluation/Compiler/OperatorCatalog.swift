import EnsignSupport

/// The operator names a targeting rule may use, for the compiler.
enum OperatorCatalog {
    /// Operators compiled to ``Expression/operation(_:_:)``, by name (aliases included: the
    /// JsonLogic suite exercises json-logic-js's `equal`, `add`, `substract`, …).
    static let operations: [String: Operator] = [
        "==": .looselyEqual, "equal": .looselyEqual,
        "===": .strictlyEqual, "strictEqual": .strictlyEqual,
        "!=": .notLooselyEqual, "notEqual": .notLooselyEqual,
        "!==": .notStrictlyEqual, "strictNotEqual": .notStrictlyEqual,
        ">": .greater, "greater": .greater,
        ">=": .greaterOrEqual, "greaterOrEqual": .greaterOrEqual,
        "<": .less, "less": .less,
        "<=": .lessOrEqual, "lessOrEqual": .lessOrEqual,
        "!": .not, "not": .not,
        "!!": .truthy, "booleanCasting": .truthy,
        "%": .remainder, "modulo": .remainder,
        "+": .add, "add": .add,
        "*": .multiply, "multiply": .multiply,
        "-": .subtract, "substract": .subtract,
        "/": .divide, "divide": .divide,
        "max": .maximum, "min": .minimum,
        "cat": .concatenate, "substr": .substring, "in": .contains, "merge": .merge,
        "missing": .missing, "missing_some": .missingSome, "log": .log,
        "starts_with": .startsWith, "ends_with": .endsWith,
    ]

    /// Operators the compiler handles itself (control flow, scoping, flagd's structured operators).
    static let specialForms: Set<String> = [
        "var", "if", "?:", "and", "or", "map", "filter", "reduce", "all", "none", "some", "fractional", "sem_ver",
        "$ref",
    ]

    /// Every operator name.
    static var allNames: [String] { (Array(operations.keys) + Array(specialForms)).sorted() }

    /// The closest known name to `name` (by edit distance, at most 2), to suggest in an error.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        let scored = candidates.map { ($0, Suggestions.editDistance(lowered, $0.lowercased())) }
            .filter { $0.1 <= 2 && $0.1 < name.count }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }
}

extension Operator {
    /// Whether the result depends on the data (and so cannot be computed at compile time).
    var readsData: Bool {
        self == .missing || self == .missingSome
    }
}
