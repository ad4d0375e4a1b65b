import EnsignSupport

/// The rules for names: flag keys are any text flagd accepts, namespaces and environment
/// names are dot-separated segments of letters, digits, `_` and `-`.
///
/// A flag key may be any non-empty text, as in flagd's files (diagnostics and the CLI show
/// keys with control characters in JSON quotes):
/// `beneficiaries.showPendingList`, `boolean-flag`, `my flag`, `team:checkout/v2@eu` and
/// `café` are all keys, matched by their Unicode scalars. (`ensign generate` makes Swift names
/// from a key's letters and digits, and says which keys it cannot name.)
///
/// A namespace or environment name is dot-separated segments of letters, digits, `_` and
/// `-`, each starting with a letter, digit or `_`: `beneficiaries`, `v2.rollout_pct`; not
/// `.hidden`, `a..b` or `has space`.
package enum KeySyntax {
    /// Why `key` cannot be a flag key, or `nil` when it can: only the empty key is refused
    /// (flagd's daemon drops it too).
    package static func flagKeyProblem(_ key: some StringProtocol) -> String? {
        key.isEmpty ? "a key cannot be empty" : nil
    }

    /// Whether `name` is a valid namespace or environment name.
    package static func isValid(_ key: some StringProtocol) -> Bool {
        guard !key.isEmpty else { return false }
        var segmentStart = true
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if segmentStart { return false }
                segmentStart = true
            case UInt8(ascii: "-"):
                if segmentStart { return false }
            default:
                guard byte.isASCIIAlphanumeric || byte == UInt8(ascii: "_") else { return false }
                segmentStart = false
            }
        }
        return !segmentStart
    }

    /// The explanation used in diagnostics of namespaces and environment names.
    static let rule = "use dot-separated segments of letters, digits, '_' and '-', each starting with a letter or digit"
}
