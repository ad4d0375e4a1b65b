/// Evaluation contexts: the attributes the rules read, each present about half the time,
/// with the values real callers send and some they should not (numbers as strings, nulls,
/// non-ASCII and decomposed text, nested objects, a `$flagd` of their own).
extension DifferentialGenerator {
    /// A context: a string `targetingKey` 75% of the time; each attribute 55%; a caller
    /// `$flagd` 3% (flagd replaces it).
    mutating func makeContext() -> GeneratedJSON {
        var members: [(String, GeneratedJSON)] = []
        if chance(75) {
            members.append(
                (
                    "targetingKey",
                    .string(pick(["user-1", "u42", "ejOoVL", "", "", "ключ", "😀", "ann@bforbank.example"]))
                ))
        }
        for (name, values) in Self.attributeValues where chance(55) {
            members.append((name, pick(values)))
        }
        if chance(3) { members.append(("$flagd", .members([("flagKey", "spoof"), ("x", .int(1))]))) }
        return .members(members)
    }

    static let attributeValues: [(String, [GeneratedJSON])] = [
        ("email", ["ann@bforbank.example", "bob@example.com", "ÉLODIE@bforbank.example", "", "x"]),
        ("country", ["FR", "BE", "DE", "fr", "US", "", "é"]),
        (
            "age",
            [
                .int(42), .int(17), .int(18), .int(65), .number("18.0"), .number("30.5"), "42", "18", " 42", "", .null,
                .int(0), .int(-1), .number("9007199254740993"),
            ]
        ),
        ("plan", ["pro", "free", "enterprise", "Pro", "on", "blue"]),
        ("tags", [.array([]), .array(["beta", "vip"]), .array(["a"]), .array(["beta", .int(1), .null]), "beta"]),
        (
            "user",
            [
                .members([("address", .members([("country", "FR")])), ("id", .int(7)), ("name", "Zoë")]),
                .members([("address", .members([("country", "e\u{301}")])), ("id", "7")]),
                .members([]), .members([("id", .null)]),
            ]
        ),
        ("version", ["1.2.3", "v2.0.0", "1.2", "1.2-beta", "2.0.0-rc.1", "1.10.0", .number("1.2"), "V3", "01.2.3"]),
        ("beta", [.bool(true), .bool(false), "true", .int(1), .int(0), .members([])]),
        ("score", [.number("0.5"), .number("99.99"), .int(100), "7.5", .number("1e21")]),
        (
            "items",
            [
                .array([.members([("k", .int(1))]), .members([("k", .int(2))])]), .array([]),
                .array([.members([("k", "1")])]),
            ]
        ),
        ("name", ["Zoë", "Zoe\u{308}", "élodie", "e\u{301}lodie", "😀", "a<b&c", "  padded  "]),
        ("ratio", [.int(2), .int(0), .int(-3), "0", .number("0.5")]),
        ("ключ", ["значение", .int(1)]),
        ("a.b", ["dotted"]),
    ]
}
