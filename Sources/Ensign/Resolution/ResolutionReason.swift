/// Why a key has the value it has, in OpenFeature's and flagd's vocabulary plus Ensign's
/// own layers (`OVERRIDE`, `PREFERENCE`).
public enum ResolutionReason: String, Sendable, Hashable, CaseIterable {
    /// A value from a file: the definition's default, an environment or a deployment file.
    case staticValue = "STATIC"
    /// Targeting chose a variant or value.
    case targetingMatch = "TARGETING_MATCH"
    /// Targeting chose through a `fractional` split.
    case split = "SPLIT"
    /// The fallback: targeting returned null, or nothing but the code default applies.
    case defaultValue = "DEFAULT"
    /// The flag's `state` is `DISABLED`: the code default applies.
    case disabled = "DISABLED"
    /// Something went wrong; see the error code. The code default applies.
    case error = "ERROR"
    /// A runtime override (debug CLI, debug menu, code, or a child context's scope).
    case override = "OVERRIDE"
    /// The user's own preference.
    case preference = "PREFERENCE"
}

extension ResolutionReason: CustomStringConvertible {
    /// OpenFeature's name, as `ensign` and the control protocol print it: `STATIC`, `OVERRIDE`, …
    public var description: String { rawValue }
}

/// What went wrong when a key could not be resolved normally, as OpenFeature names it.
public enum ResolutionErrorCode: String, Sendable, Hashable, CaseIterable {
    /// No definitions file defines the key.
    case flagNotFound = "FLAG_NOT_FOUND"
    /// The resolved value is not of the type the code asked for.
    case typeMismatch = "TYPE_MISMATCH"
    /// The definition could not be parsed.
    case parseError = "PARSE_ERROR"
    /// The evaluation context is not usable.
    case invalidContext = "INVALID_CONTEXT"
    /// Any other problem (for example, targeting returned a variant that does not exist).
    case general = "GENERAL"
}

extension ResolutionErrorCode: CustomStringConvertible {
    /// OpenFeature's name, as `ensign` and the control protocol print it: `TYPE_MISMATCH`, …
    public var description: String { rawValue }
}

/// The layers a value can come from, lowest precedence first.
public enum ValueLayer: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// The default given with the typed key in code.
    case codeDefault
    /// The definition's `default` or `defaultVariant`.
    case definition
    /// The environment's value: inline `environments:`, then `environments/<name>.yaml`.
    case environment
    /// A deployment file given at start-up.
    case deployment
    /// The fleet layer (a distributed store shared by every instance).
    case fleet
    /// Targeting rules evaluated against the evaluation context.
    case targeting
    /// The user's preference.
    case preference
    /// A runtime override.
    case override
    /// An override set on a child context for its subtree.
    case scopeOverride

    /// Lower layers sort first.
    public static func < (lhs: ValueLayer, rhs: ValueLayer) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A short name: `code default`, `definition`, `environment`, …
    public var description: String {
        switch self {
        case .codeDefault: return "code default"
        case .definition: return "definition"
        case .environment: return "environment"
        case .deployment: return "deployment"
        case .fleet: return "fleet"
        case .targeting: return "targeting"
        case .preference: return "preference"
        case .override: return "override"
        case .scopeOverride: return "scope override"
        }
    }
}
