import Ensign

/// Decides whether Ensign's and the reference's outcomes are the same answer.
///
/// Only differences of representation are normalised, each where both sides mean the same
/// JSON value:
/// 1. numbers compare by value, so `1` equals `1.0` (JSON has one number type; Python's core
///    returns a float flag's `1` as `1.0`);
/// 2. object members compare without regard to order;
/// 3. when the reason is `ERROR` on both sides the variant is not compared (OpenFeature's error
///    details carry none, and the Python core never reports one).
///
/// Nothing else is: strings (values, variants, keys) compare by Unicode scalars, never by
/// Swift's canonical equivalence, since flagd tells NFC from NFD apart.
enum OutcomeComparison {
    static func same(_ ensign: EvaluationOutcome, _ reference: EvaluationOutcome) -> Bool {
        guard ensign.reason == reference.reason, ensign.errorCode == reference.errorCode else { return false }
        if ensign.reason != "ERROR", !sameString(ensign.variant, reference.variant) { return false }
        return sameJSON(ensign.value, reference.value)
    }

    static func sameString(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?): return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        default: return false
        }
    }

    static func sameJSON(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { sameJSON($0, $1) }
        case (.object(let a), .object(let b)):
            let sortedA = a.sorted { Array($0.key.unicodeScalars) < Array($1.key.unicodeScalars) }
            let sortedB = b.sorted { Array($0.key.unicodeScalars) < Array($1.key.unicodeScalars) }
            return sortedA.count == sortedB.count
                && zip(sortedA, sortedB).allSatisfy { sameString($0.key, $1.key) && sameJSON($0.value, $1.value) }
        default:
            guard let a = left.numericValue, let b = right.numericValue else { return false }
            return a == b
        }
    }
}

extension Array where Element == Unicode.Scalar {
    /// Scalar-by-scalar order (code-point order), for sorting keys without canonical equivalence.
    static func < (left: [Unicode.Scalar], right: [Unicode.Scalar]) -> Bool {
        left.lexicographicallyPrecedes(right) { $0.value < $1.value }
    }
}
