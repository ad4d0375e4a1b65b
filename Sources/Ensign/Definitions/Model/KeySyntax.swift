/// The rules for names: flag keys are any text flagd accepts, namespaces and environment
/// names are dot-separated segments of letters, digits, `_` and `-`.
///
/// A flag key may be any non-empty text without control characters, as in flagd's files:
/// `beneficiaries.showPendingList`, `boolean-flag`, `my flag`, `team:checkout/v2@eu` and
/// `café` are all keys, matched by their Unicode scalars. (`ensign generate` makes Swift names
/// from a key's letters and digits, and says which keys it cannot name.)
///
/// A namespace or environment name is dot-separated segments of letters, digits, `_` and
/// `-`, each starting with a letter, digit or `_`: `beneficiaries`, `v2.rollout_pct`; not
/// `.hidden`, `a..b` or `has space`.
public enum KeySyntax {
    /// Why `key` cannot be a flag key, or `nil` when it can.
    public static func flagKeyProblem(_ key: some StringProtocol) -> String? {
        if key.isEmpty { return "a key cannot be empty" }
        if let control = key.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            let code = String(control.value, radix: 16, uppercase: true)
            return "a key cannot hold control characters (U+\(String(repeating: "0", count: 4 - code.count) + code))"
        }
        return nil
    }

    /// Whether `name` is a valid namespace or environment name.
    public static func isValid(_ key: some StringProtocol) -> Bool {
        guard !key.isEmpty else { return false }
        var segmentStart = true
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if segmentStart { return false }
                segmentStart = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                segmentStart = false
            case UInt8(ascii: "-"):
                if segmentStart { return false }
            default:
                return false
            }
        }
        return !segmentStart
    }

    /// The explanation used in diagnostics of namespaces and environment names.
    static let rule = "use dot-separated segments of letters, digits, '_' and '-', each starting with a letter or digit"
}
