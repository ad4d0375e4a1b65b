/// The rules for flag keys and namespaces: dot-separated segments of letters, digits, `_`
/// and `-`, each starting with a letter, digit or `_`.
///
/// `beneficiaries.showPendingList`, `boolean-flag` and `v2.rollout_pct` are valid;
/// `.hidden`, `a..b`, `has space` and `emoji🚩` are not.
public enum KeySyntax {
    /// Whether `key` is a valid key (or namespace).
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

    /// The explanation used in diagnostics.
    static let rule = "use dot-separated segments of letters, digits, '_' and '-', each starting with a letter or digit"
}
