import EnsignSupport

/// The type and constraints (`enum`, `minimum`, `maximum`) a key's values must meet.
///
/// ```swift
/// let rules = ValueRules(type: .int, minimum: 5, maximum: 100)
/// rules.check(.int(500))  // .failure(.aboveMaximum(500, maximum: 100))
/// ```
package struct ValueRules: Sendable, Hashable {
    /// The value type.
    package var type: FlagType
    /// Allowed values, from `enum:`.
    package var allowedValues: [JSONValue]?
    /// Inclusive lower bound.
    package var minimum: Double?
    /// Inclusive upper bound.
    package var maximum: Double?

    /// Creates rules.
    package init(type: FlagType, allowedValues: [JSONValue]? = nil, minimum: Double? = nil, maximum: Double? = nil) {
        self.type = type
        self.allowedValues = allowedValues
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The value converted to the type (an int is a valid double), or why it is not acceptable.
    package func check(_ value: JSONValue) -> Result<JSONValue, ContextWriteError.ValueProblem> {
        guard let converted = type.coerce(value) else {
            return .failure(.wrongType(expected: type, found: value))
        }
        if let allowedValues, !allowedValues.contains(converted) {
            return .failure(.notAllowed(converted, allowed: allowedValues))
        }
        if let number = converted.numericValue {
            if let minimum, number < minimum { return .failure(.belowMinimum(converted, minimum: minimum)) }
            if let maximum, number > maximum { return .failure(.aboveMaximum(converted, maximum: maximum)) }
        }
        return .success(converted)
    }
}

extension ContextWriteError {
    /// Why a value is not acceptable for a key.
    public enum ValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The value is not of the key's type.
        case wrongType(expected: FlagType, found: JSONValue)
        /// The value is not one of those listed in `enum:`.
        case notAllowed(JSONValue, allowed: [JSONValue])
        /// The value is below `minimum:`.
        case belowMinimum(JSONValue, minimum: Double)
        /// The value is above `maximum:`.
        case aboveMaximum(JSONValue, maximum: Double)

        /// A phrase that completes "'key' value … ": `"twenty" is not an int`.
        public var description: String {
            switch self {
            case .wrongType(let expected, let found):
                var text = "\(found.jsonText) is not \(expected.withArticle)"
                if expected == .bool, let word = found.stringValue, let meant = BoolLookalike.meaning(of: word) {
                    text += " (YAML 1.2 reads \(word) as a string; write \(meant))"
                }
                return text
            case .notAllowed(let value, let allowed):
                let list = allowed.map(\.jsonText).joined(separator: ", ")
                let hint = value.stringValue.map {
                    Suggestions.didYouMean($0, among: allowed.compactMap(\.stringValue))
                }
                return "\(value.jsonText) is not one of \(list)\(hint ?? "")"
            case .belowMinimum(let value, let minimum):
                return "\(value.jsonText) is below the minimum of \(Self.number(minimum))"
            case .aboveMaximum(let value, let maximum):
                return "\(value.jsonText) is above the maximum of \(Self.number(maximum))"
            }
        }

        private static func number(_ value: Double) -> String {
            value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }
}

/// YAML 1.1's boolean words, which YAML 1.2 (and so Ensign) reads as strings.
enum BoolLookalike {
    /// `true` or `false` for yes/no/on/off in any case, else `nil`.
    static func meaning(of word: String) -> String? {
        switch word.lowercased() {
        case "yes", "on", "y": return "true"
        case "no", "off", "n": return "false"
        default: return nil
        }
    }
}
