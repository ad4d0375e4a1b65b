import Ensign

/// One generated flag set and the evaluations the harness makes against it: the unit that
/// both evaluators load once, and that a seed replays.
struct DifferentialCase: Sendable, Hashable {
    /// The seed that generated the case (`ENSIGN_DIFFERENTIAL_SEED` replays it).
    var seed: UInt64
    /// The flag set, in flagd's JSON format.
    var flagSet: GeneratedJSON
    /// Whether the file is written with every non-ASCII character as a `\u` escape.
    var escapesNonASCII: Bool
    /// The evaluations, in order.
    var evaluations: [Evaluation]

    /// One flag evaluated for one context, as one OpenFeature type.
    struct Evaluation: Sendable, Hashable {
        var flagKey: String
        var type: FlagKind
        /// The context as the JSON object a caller sends (with `targetingKey` among its members).
        var context: GeneratedJSON
    }

    /// The flag set's file text, as both sides read it.
    var flagSetText: String { flagSet.text(escapingNonASCII: escapesNonASCII) }

    /// The same case with only evaluation `index`.
    func only(_ index: Int) -> DifferentialCase {
        var single = self
        single.evaluations = [evaluations[index]]
        return single
    }
}

/// The five OpenFeature value types a flag is read as.
enum FlagKind: String, Sendable, Hashable, CaseIterable {
    case bool, string, int, float, object

    /// The caller's default, the same on both sides (reference.py's `DEFAULTS`).
    var callerDefault: JSONValue {
        switch self {
        case .bool: return .bool(false)
        case .string: return .string("fallback")
        case .int: return .int(-1)
        case .float: return .double(-1.5)
        case .object: return .object(["fallback": .bool(true)])
        }
    }
}

/// What an evaluation gave, in OpenFeature's terms: the value the caller sees (its default
/// on an error), the variant, the reason and the error code.
struct EvaluationOutcome: Sendable, Hashable, CustomStringConvertible {
    var value: JSONValue
    var variant: String?
    var reason: String
    var errorCode: String?

    var description: String {
        let code = errorCode.map { " \($0)" } ?? ""
        let name = variant.map { " variant \(GeneratedJSON.string($0).text())" } ?? ""
        return "\(reason)\(code)\(name) value \(value.jsonText)"
    }
}
