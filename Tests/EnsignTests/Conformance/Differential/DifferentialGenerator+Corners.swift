/// The corners where a strict reading of a flag file and flagd's run-time reading part ways
/// (issue 37): operators given the wrong number or kind of arguments, arithmetic that yields
/// NaN, `substr` out of range, operators that do not exist. Real files reach them by mistake;
/// the harness reaches them on purpose, so that every difference in them is seen and classified.
extension DifferentialGenerator {
    /// One corner expression; relative weights: wrong arity 30, wrong kinds 30, NaN and
    /// out-of-range 20, an unknown operator or `$ref` to no evaluator 10, a corner inside a
    /// comparison 10.
    mutating func corner(depth: Int) -> GeneratedJSON {
        switch choose([30, 30, 20, 10, 10]) {
        case 0: return wrongArity()
        case 1: return wrongKinds()
        case 2: return outOfRange()
        case 3:
            if chance(50) || evaluatorNames.isEmpty {
                return .operation(pick(["nope", "Var", "sem-ver", "startsWith"]), .array([attribute(), literal()]))
            }
            return .operation("$ref", .string("no-such-evaluator"))
        default:
            let inner = depth > 0 ? corner(depth: depth - 1) : wrongKinds()
            return .operation(pick(["==", "!=", "<", "starts_with", "in"]), .array([inner, literal()]))
        }
    }

    /// Operators with too few or too many arguments, or none.
    mutating func wrongArity() -> GeneratedJSON {
        switch choose([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) {
        case 0: return .operation("%", .array([number()]))
        case 1: return .operation("/", .array([number()]))
        case 2: return .operation("-", .array([attribute()]))
        case 3: return .operation("==", .array([literal()]))
        case 4: return .operation("!", .array([literal(), literal()]))
        case 5: return .operation(pick(["max", "min", "+", "*"]), .array([]))
        case 6: return .operation("in", .array([literal()]))
        case 7: return .operation(pick(["starts_with", "ends_with"]), .array([attribute()]))
        case 8: return .operation("sem_ver", .array([.operation("var", "version"), .string("=")]))
        case 9: return .operation("substr", .array([attribute()]))
        case 10: return .operation(pick(["<", ">", "<="]), .array([number()]))
        default: return .operation("if", .array([]))
        }
    }

    /// Operators given values of a kind they do not take: booleans, text, null, arrays and
    /// objects to arithmetic, a constant where `reduce` wants an operation.
    mutating func wrongKinds() -> GeneratedJSON {
        let odd: [GeneratedJSON] = [
            .bool(true), .string("5"), .string("x"), .null, .array([.int(1)]), .members([("a", .int(1))]),
            .operation("var", "missingAttr"), .operation("var", "tags"), .operation("var", "beta"),
        ]
        switch choose([1, 1, 1, 1, 1, 1]) {
        case 0: return .operation(pick(["max", "min"]), .array([pick(odd), pick(odd)]))
        case 1: return .operation(pick(["-", "+", "*", "/", "%"]), .array([pick(odd), number()]))
        case 2: return .operation("reduce", .array([.array([.int(1)]), pick(odd), .int(10)]))
        case 3: return .operation(pick(["map", "filter", "all"]), .array([pick(odd), .operation("var", "")]))
        case 4: return .operation(pick(["cat", "merge"]), .array([pick(odd), pick(odd)]))
        default: return .operation("substr", .array([pick(odd), .int(1)]))
        }
    }

    /// NaN from arithmetic on text, `substr` starting past the end or ending before its start.
    mutating func outOfRange() -> GeneratedJSON {
        switch choose([1, 1, 1]) {
        case 0:
            return .operation(
                pick(["-", "*", "/"]), .array([.string(pick(["x", "2.0", " ", "1e400"])), .string("2.0")]))
        case 1:
            let subject = chance(50) ? GeneratedJSON.operation("cat", .array([.string("on")])) : attribute()
            return .operation(
                "substr", .array([subject, .int(pick([100, -100, 3])), .int(pick([-1, -100, 100, 0]))]))
        default:
            return .operation(pick(["<", ">"]), .array([.string("x"), .number(pick(["1e400", "-0.0", "0"]))]))
        }
    }
}
