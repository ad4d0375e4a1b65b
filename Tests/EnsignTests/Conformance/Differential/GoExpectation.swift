import Ensign
import EnsignJSON
import Foundation

/// flagd's Go daemon's answer where it can be worked out without evaluating JsonLogic: a
/// `targeting` that is not an object (`evaluateVariant` and `resolve[T]` in flagd's
/// `core/pkg/evaluator/json.go`; `Sources/Ensign/Ensign.docc/FlagdSemantics.md`, “The targeting
/// member” and “Variant mapping”).
///
/// A class that explains a mismatch by "the Python core differs from Go here" should only
/// explain it when Ensign gives Go's answer; where that answer is this simple, the class
/// checks it, so an Ensign bug in the same place is not hidden.
enum GoExpectation {
    /// Go's outcome for `flag` read as `type` when its `targeting` is the literal `targeting`,
    /// or `nil` when this model cannot say (a non-empty array, an object).
    static func literalTargeting(_ targeting: GeneratedJSON, flag: GeneratedJSON, type: FlagKind) -> EvaluationOutcome?
    {
        let fallback = type.callerDefault
        if flag["state"] == .string("DISABLED") {
            return EvaluationOutcome(value: fallback, variant: nil, reason: "DISABLED", errorCode: nil)
        }
        let name: String
        switch targeting {
        case .null:
            guard case .string(let defaultName)? = flag["defaultVariant"], !defaultName.isEmpty else {
                return EvaluationOutcome(value: fallback, variant: nil, reason: "DEFAULT", errorCode: nil)
            }
            return typed(variant: defaultName, flag: flag, type: type, reason: "DEFAULT")
        case .string(let text):
            // encoding/json escapes these, and the escaped name is looked up.
            guard
                !text.unicodeScalars.contains(where: {
                    "\"\\<>&\u{2028}\u{2029}".unicodeScalars.contains($0) || $0.value < 0x20
                })
            else { return general(type) }
            name = text
        case .bool(let value): name = value ? "true" : "false"
        case .number(let text): name = JSONNumberName.goName(text)
        case .array(let elements) where elements.isEmpty: name = "[]"
        default: return nil
        }
        return typed(variant: name, flag: flag, type: type, reason: "TARGETING_MATCH")
    }

    static func general(_ type: FlagKind) -> EvaluationOutcome {
        EvaluationOutcome(value: type.callerDefault, variant: nil, reason: "ERROR", errorCode: "GENERAL")
    }

    /// `resolve[T]`: the variant's value if it has the Go type `type` needs.
    static func typed(variant: String, flag: GeneratedJSON, type: FlagKind, reason: String) -> EvaluationOutcome {
        guard let value = flag["variants"]?[variant] else { return general(type) }
        let mismatch = EvaluationOutcome(
            value: type.callerDefault, variant: nil, reason: "ERROR", errorCode: "TYPE_MISMATCH")
        let json: JSONValue
        switch (type, value) {
        case (.bool, .bool(let flag)): json = .bool(flag)
        case (.string, .string(let text)): json = .string(text)
        case (.int, .number(let text)):
            // float64, then int64(v): truncated.
            guard let number = Double(text), let whole = Int(exactly: number.rounded(.towardZero)) else {
                return mismatch
            }
            json = .int(whole)
        case (.float, .number(let text)):
            guard let number = Double(text) else { return mismatch }
            json = .double(number)
        case (.object, .object):
            guard let parsed = try? JSONValue(jsonText: value.text()) else { return mismatch }
            json = parsed
        default:
            return mismatch
        }
        return EvaluationOutcome(value: json, variant: variant, reason: reason, errorCode: nil)
    }
}

/// How Go's `encoding/json` writes a float64, which is the variant name a number result selects.
enum JSONNumberName {
    /// `1.0` → `1`, `1e21` → `1e+21`, `1e-7` → `1e-07`, `-0` → `-0`.
    static func goName(_ text: String) -> String {
        guard let value = Double(text) else { return text }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        let magnitude = abs(value)
        if magnitude < 1e21, magnitude >= 1e-6 {
            if value.rounded() == value { return String(format: "%.0f", value) }
            return "\(value)"
        }
        // Go writes the exponent with at least two digits: 1e-07, 1e+21.
        let description = "\(value)"
        guard let exponentStart = description.firstIndex(of: "e") else { return description }
        let mantissa = description[..<exponentStart]
        var exponent = description[description.index(after: exponentStart)...]
        let sign = exponent.first == "-" ? "-" : "+"
        if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
        let digits = exponent.count < 2 ? "0" + exponent : String(exponent)
        let cleanMantissa = mantissa.hasSuffix(".0") ? String(mantissa.dropLast(2)) : String(mantissa)
        return cleanMantissa + "e" + sign + digits
    }
}
