import Ensign
import EnsignJSON
import Foundation
import Testing

/// The harness's own parts, checked without the reference: that the generator covers what
/// the issue asks for and replays from a seed, that the comparison normalises only
/// representation, that the catalog and reference.py name the same situations, that the
/// shrinker shrinks, and that the Go answers the catalog checks are Go's.
@Suite("Differential harness: generator, comparison, catalog and shrinker")
struct DifferentialHarnessSelfTests {
    static let operators = [
        "var", "missing", "missing_some", "if", "?:", "==", "===", "!=", "!==", "!", "!!", "or", "and", ">", ">=", "<",
        "<=", "max", "min", "+", "-", "*", "/", "%", "map", "filter", "reduce", "all", "none", "some", "merge", "in",
        "cat", "substr", "fractional", "sem_ver", "starts_with", "ends_with", "$ref",
    ]

    static let cases = (1...UInt64(1_200)).map(DifferentialGenerator.makeCase)

    @Test("The CI-bound cases use every operator flagd supports, $ref included")
    func everyOperator() {
        var seen = Set<String>()
        for testCase in Self.cases { testCase.flagSet.collectOperators(into: &seen) }
        #expect(
            Set(Self.operators).subtracting(seen).isEmpty, "never generated: \(Set(Self.operators).subtracting(seen))")
    }

    @Test("The cases have every variant type, both states, missing and null defaults, odd keys and odd contexts")
    func everyKindOfFlagAndContext() {
        let flags = Self.cases.flatMap { testCase -> [GeneratedJSON.Member] in
            guard case .object(let members)? = testCase.flagSet["flags"] else { return [] }
            return members
        }
        let types = Set(Self.cases.flatMap { $0.evaluations.map(\.type) })
        #expect(types == Set(FlagKind.allCases))
        #expect(flags.contains { $0.value["state"] == .string("DISABLED") })
        #expect(flags.contains { $0.value["state"] == .string("ENABLED") })
        #expect(flags.contains { $0.value["defaultVariant"] == nil })
        #expect(flags.contains { $0.value["defaultVariant"] == .null })
        #expect(flags.contains { !$0.key.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(flags.contains { $0.key.contains("\"") || $0.key.contains("\\") })
        #expect(Self.cases.contains { $0.escapesNonASCII } && Self.cases.contains { !$0.escapesNonASCII })
        let contexts = Self.cases.flatMap { $0.evaluations.map(\.context) }
        #expect(contexts.contains { $0["targetingKey"] == nil })
        #expect(contexts.contains { $0["age"] == .string("42") })
        #expect(contexts.contains { $0["user"]?["address"] != nil })
        #expect(contexts.contains { $0["name"] == .string("Zoe\u{308}") })
    }

    @Test("A seed always makes the same case, and another seed another one")
    func seedsReplay() {
        #expect(DifferentialGenerator.makeCase(seed: 7) == DifferentialGenerator.makeCase(seed: 7))
        #expect(DifferentialGenerator.makeCase(seed: 7) != DifferentialGenerator.makeCase(seed: 8))
        #expect(DifferentialGenerator.makeCase(seed: 7).flagSetText == Self.cases[6].flagSetText)
    }

    @Test("The comparison normalises 1 and 1.0 and member order, never canonically equivalent strings")
    func comparisonNormalisesOnlyRepresentation() throws {
        func outcome(_ value: JSONValue, _ variant: String? = "on", _ reason: String = "STATIC") -> EvaluationOutcome {
            EvaluationOutcome(value: value, variant: variant, reason: reason, errorCode: nil)
        }
        #expect(OutcomeComparison.same(outcome(.int(1)), outcome(.double(1.0))))
        #expect(!OutcomeComparison.same(outcome(.int(1)), outcome(.double(1.5))))
        let ab = try JSONValue(jsonText: #"{"a":1,"b":[true]}"#)
        let ba = try JSONValue(jsonText: #"{"b":[true],"a":1.0}"#)
        #expect(OutcomeComparison.same(outcome(ab), outcome(ba)))
        #expect(!OutcomeComparison.same(outcome(.string("\u{e9}")), outcome(.string("e\u{301}"))))
        #expect(!OutcomeComparison.same(outcome(.bool(true), "\u{e9}"), outcome(.bool(true), "e\u{301}")))
        #expect(!OutcomeComparison.same(outcome(.bool(true)), outcome(.bool(true), "on", "TARGETING_MATCH")))
        let error = EvaluationOutcome(value: .bool(false), variant: "on", reason: "ERROR", errorCode: "TYPE_MISMATCH")
        #expect(
            OutcomeComparison.same(
                error, EvaluationOutcome(value: .bool(false), variant: nil, reason: "ERROR", errorCode: "TYPE_MISMATCH")
            ))
    }

    @Test("reference.py and the catalog name the same situations")
    func catalogMatchesTheRunner() throws {
        let runner = try String(contentsOf: ReferenceEvaluator.runner, encoding: .utf8)
        let reported = Set(
            runner.split(separator: "event(\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        let catalog = MismatchClass.catalog
        let eventClasses = Set(catalog.filter(\.isReportedByReference).map(\.id))
        #expect(reported.count > 40)
        #expect(reported.subtracting(eventClasses).subtracting(["python-uncaught-"]).isEmpty)
        #expect(eventClasses.subtracting(reported).isEmpty)
        #expect(Set(catalog.map(\.id)).count == catalog.count, "class names are unique")
        #expect(catalog.contains { $0.id == "python-uncaught-exception" })
    }

    @Test("Shrinking keeps the failure and makes the case smaller")
    func shrinkerShrinks() throws {
        let testCase = try #require(Self.cases.first { $0.flagSetText.contains("sem_ver") && $0.flagSet.size > 40 })
        let single = testCase.only(0)
        let shrunk = DifferentialShrinker(stillFails: { $0.flagSetText.contains("\"sem_ver\"") }).shrink(single)
        #expect(shrunk.flagSetText.contains("\"sem_ver\""))
        #expect(shrunk.flagSet.size < single.flagSet.size)
        #expect(shrunk.evaluations[0].context.size <= 1)
    }

    @Test("Go's answers for literal targeting and its number names")
    func goExpectations() {
        let flag = GeneratedJSON.members([
            ("state", "ENABLED"), ("variants", .members([("on", .bool(true)), ("off", .bool(false))])),
            ("defaultVariant", "off"),
        ])
        let on = GoExpectation.literalTargeting("on", flag: flag, type: .bool)
        #expect(on == EvaluationOutcome(value: .bool(true), variant: "on", reason: "TARGETING_MATCH", errorCode: nil))
        let null = GoExpectation.literalTargeting(.null, flag: flag, type: .bool)
        #expect(null == EvaluationOutcome(value: .bool(false), variant: "off", reason: "DEFAULT", errorCode: nil))
        #expect(GoExpectation.literalTargeting(.bool(false), flag: flag, type: .bool)?.errorCode == "GENERAL")
        #expect(GoExpectation.literalTargeting("on", flag: flag, type: .string)?.errorCode == "TYPE_MISMATCH")
        #expect(GoExpectation.literalTargeting(.members([("a", .int(1))]), flag: flag, type: .bool) == nil)
        #expect(JSONNumberName.goName("1.0") == "1")
        #expect(JSONNumberName.goName("1e21") == "1e+21")
        #expect(JSONNumberName.goName("1e-7") == "1e-07")
        #expect(JSONNumberName.goName("1e20") == "100000000000000000000")
        #expect(JSONNumberName.goName("-0.0") == "-0")
        #expect(JSONNumberName.goName("1.5") == "1.5")
    }
}

extension GeneratedJSON {
    /// Every operator name used anywhere in the tree (one-member objects' keys).
    func collectOperators(into names: inout Set<String>) {
        switch self {
        case .array(let elements): for element in elements { element.collectOperators(into: &names) }
        case .object(let members):
            if members.count == 1 { names.insert(members[0].key) }
            for member in members { member.value.collectOperators(into: &names) }
        default: break
        }
    }
}
