import Ensign

/// What the harness knows about one mismatch: the case, the evaluation, both results.
struct MismatchEvidence {
    var testCase: DifferentialCase
    var index: Int
    var ensign: EnsignDifferentialSide.Result
    var reference: ReferenceEvaluator.Result
    var loadError: String?
    var loadEvents: [String]

    var evaluation: DifferentialCase.Evaluation { testCase.evaluations[index] }
    /// The evaluated flag's definition, when the set has it.
    var flag: GeneratedJSON? { testCase.flagSet["flags"]?[evaluation.flagKey] }
    /// The flag's targeting, a whole `{"$ref": name}` replaced by its evaluator as flagd does.
    var targeting: GeneratedJSON? {
        guard let targeting = flag?["targeting"] else { return nil }
        guard case .object(let members) = targeting, members.count == 1, members[0].key == "$ref",
            case .string(let name) = members[0].value, let evaluator = testCase.flagSet["$evaluators"]?[name]
        else { return targeting }
        return evaluator
    }
    /// The situations the reference's evaluation reached (reference.py), the load's included.
    var events: Set<String> { Set(reference.events + loadEvents) }
}

/// A named, documented reason why Ensign and flagd's Python core may answer differently,
/// with the predicate that recognises it. Every class is a place where the Python core
/// differs from flagd's Go daemon (which Ensign follows, save where MismatchCatalog+Operators.swift
/// says otherwise; `Sources/Ensign/Ensign.docc/FlagdSemantics.md` goes through the cases) or
/// where Ensign differs from both on purpose; a mismatch no class recognises is unexplained and
/// fails the test.
struct MismatchClass: Sendable {
    /// A stable name: the event reference.py reports, or the name of a predicate here.
    var id: String
    /// What Go (and Ensign) do, what the Python core does.
    var summary: String
    /// Whether Ensign differs from flagd's Go daemon here on purpose (otherwise the class is a
    /// place where the Python core differs from Go, and Ensign gives Go's answer).
    var isDeliberate = false
    /// Whether the class is a situation reference.py reports (its `event(...)` names).
    var isReportedByReference = false
    var matches: @Sendable (MismatchEvidence) -> Bool

    /// A class recognised by reference.py having reached situation `id`.
    static func event(_ id: String, _ summary: String) -> MismatchClass {
        MismatchClass(id: id, summary: summary, isReportedByReference: true) { $0.events.contains(id) }
    }

    /// The first class that recognises `evidence`, if any.
    static func classify(_ evidence: MismatchEvidence) -> MismatchClass? {
        catalog.first { $0.matches(evidence) }
    }

    /// Every class, those about the flag set first (they explain every evaluation of it).
    static let catalog: [MismatchClass] = flagClasses + MismatchClass.operatorClasses
}

extension MismatchClass {
    static let flagClasses: [MismatchClass] = [
        MismatchClass(
            id: "python-refuses-flag-set",
            summary: "Go accepts any state (only DISABLED disables, none at all is enabled) and empty variants; the"
                + " Python core refuses the whole flag set at load"
        ) { evidence in
            guard evidence.loadError != nil, case .object(let flags)? = evidence.testCase.flagSet["flags"] else {
                return false
            }
            return flags.contains { member in
                let flag = member.value
                guard flag["state"] == .string("ENABLED") || flag["state"] == .string("DISABLED") else { return true }
                guard case .object(let variants)? = flag["variants"], !variants.isEmpty else { return true }
                return false
            }
        },
        event(
            "python-ref-substitution",
            "Go replaces {\"$ref\": name} in the compact JSON text, non-ASCII names included; the Python core's"
                + " regex runs over ensure_ascii text and reads the evaluator's JSON as a replacement template"),
        MismatchClass(
            id: "default-variant-not-a-string",
            summary: "Ensign (deliberately) makes a defaultVariant that is not a string a PARSE_ERROR of that flag;"
                + " Go refuses the whole flag set, the Python core reads true as \"true\"",
            isDeliberate: true
        ) { evidence in
            guard let value = evidence.flag?["defaultVariant"], value != .null else { return false }
            if case .string = value { return false }
            return evidence.ensign.outcome.errorCode == "PARSE_ERROR"
        },
        MismatchClass(
            id: "int-read-of-a-fraction",
            summary: "Ensign (deliberately) makes an int read of a number with a fraction, or beyond Int's range, a"
                + " TYPE_MISMATCH; Go's ResolveIntValue converts the float64 with int64(v), truncating 1.25 to 1",
            isDeliberate: true
        ) { evidence in
            guard evidence.evaluation.type == .int, evidence.ensign.outcome.errorCode == "TYPE_MISMATCH",
                case .double(let value) = evidence.ensign.untypedValue
            else { return false }
            return value.rounded(.towardZero) != value || Int(exactly: value) == nil
        },
        MismatchClass(
            id: "empty-flag-key",
            summary: "Go's store drops a flag whose key is \"\" (FLAG_NOT_FOUND); the Python core keeps it"
        ) { $0.evaluation.flagKey.isEmpty && $0.ensign.outcome.errorCode == "FLAG_NOT_FOUND" },
        MismatchClass(
            id: "targeting-not-an-object",
            summary: "Go evaluates any targeting JSON (null gives DEFAULT, \"on\" selects on, false/[] name variants"
                + " \"false\"/\"[]\"); the Python core reads a falsy one as STATIC and refuses the rest"
        ) { evidence in
            guard let flag = evidence.flag, let targeting = evidence.targeting else { return false }
            if case .object = targeting { return false }
            // Where Go's answer is known, Ensign must give it.
            guard let go = GoExpectation.literalTargeting(targeting, flag: flag, type: evidence.evaluation.type) else {
                return true
            }
            return OutcomeComparison.same(evidence.ensign.outcome, go)
        },
        MismatchClass(
            id: "int-integral-float",
            summary: "Go reads an int flag's variant 2.0 as 2 (JSON has one number type); the Python core needs a"
                + " Python int: TYPE_MISMATCH"
        ) { evidence in
            guard evidence.evaluation.type == .int, case .double(let value) = evidence.ensign.untypedValue else {
                return false
            }
            return value.rounded() == value && evidence.reference.outcome.errorCode == "TYPE_MISMATCH"
                && evidence.ensign.outcome.errorCode == nil
        },
        MismatchClass(
            id: "python-bool-as-float",
            summary: "Go's float flags need a JSON number (a bool is TYPE_MISMATCH); the Python core's float read"
                + " accepts a bool (a Python int) and returns true as 1.0"
        ) { evidence in
            guard evidence.evaluation.type == .float, let variant = evidence.reference.outcome.variant,
                case .bool? = evidence.flag?["variants"]?[variant]
            else { return false }
            return evidence.reference.outcome.errorCode == nil && evidence.ensign.outcome.errorCode == "TYPE_MISMATCH"
        },
        MismatchClass(
            id: "object-array-value",
            summary: "Go's object flags need a JSON object (an array is TYPE_MISMATCH); the Python core accepts a list"
        ) { evidence in
            guard evidence.evaluation.type == .object, case .array = evidence.ensign.untypedValue else { return false }
            return evidence.ensign.outcome.errorCode == "TYPE_MISMATCH"
        },
    ]
}
