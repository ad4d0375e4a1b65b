/// How `ensign generate` turns keys and enum values into Swift names.
///
/// The rules, in order:
///
/// 1. **Words.** The text is split into words at every character that is not a letter (of any
///    script: Swift identifiers take them) or an ASCII digit: `.`, `-`, `_`, spaces, `:`, `/`,
///    `@`, emoji and anything else. `wallet.showBalance` is `wallet`, `showBalance`;
///    `boolean-flag` is `boolean`, `flag`; `v2.rollout_pct` is `v2`, `rollout`, `pct`;
///    `crème brûlée` is `crème`, `brûlée`. Capitals inside a word are kept, so a camel-cased
///    segment stays as it was written.
/// 2. **Members** (keys and enum cases) are lower camel case: the first word starts in lower
///    case (a leading acronym is lowered as a whole: `URLScheme` → `urlScheme`, `EUR` → `eur`),
///    and every other word starts with a capital: `.walletShowBalance`, `.booleanFlag`.
/// 3. **Types** (the enums generated for string keys with `enum:`) are upper camel case: every
///    word starts with a capital: `wallet.currencyStyle` → `WalletCurrencyStyle`. A name that
///    would hide a Swift or Ensign type the generated code or an app commonly uses (`String`,
///    `Type`, `FlagKey`, …) gets the suffix `Value`: `string` → `StringValue`.
/// 4. **Digits.** A name that would start with a digit gets a leading underscore:
///    `2fa.enabled` → `._2faEnabled`.
/// 5. **Keywords.** A member named like a Swift keyword is declared in backticks:
///    ``static let `default` ``. They read without them (`context[.default]`), except `init`,
///    which needs them at the point of use too (``context[.`init`]``).
///
/// Two keys whose names come out the same (`a.b-c` and `a.bC` are both `aBC`) are an error,
/// reported at both keys, as are two values of one `enum:` that make the same case name and
/// text with no letters or digits at all.
public enum SwiftName {
    /// The words of `text`: its runs of letters and ASCII digits.
    public static func words(of text: some StringProtocol) -> [Substring] {
        let string = Substring(text)
        return string.split { !isWordCharacter($0) }
    }

    /// The member name for `text` before keyword escaping (rules 1, 2 and 4), or `nil` when
    /// it has no letters or digits.
    public static func memberIdentifier(for text: some StringProtocol) -> String? {
        let parts = words(of: text)
        guard let first = parts.first else { return nil }
        let name = lowercasingLeadingCapitals(first) + parts.dropFirst().map(capitalizingFirst).joined()
        return prefixingDigit(name)
    }

    /// The member name for `text` as it is declared: ``memberIdentifier(for:)``, in backticks
    /// when it is a Swift keyword.
    public static func member(for text: some StringProtocol) -> String? {
        memberIdentifier(for: text).map(escapingKeyword)
    }

    /// The type name for `text` (rules 1, 3 and 4), or `nil` when it has no letters or digits.
    public static func type(for text: some StringProtocol) -> String? {
        let parts = words(of: text)
        guard !parts.isEmpty else { return nil }
        let name = prefixingDigit(parts.map(capitalizingFirst).joined())
        return SwiftKeywords.shadowedTypeNames.contains(name) ? name + "Value" : name
    }

    /// `name` in backticks when it is a Swift keyword.
    public static func escapingKeyword(_ name: String) -> String {
        SwiftKeywords.reserved.contains(name) ? "`\(name)`" : name
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        // A letter of any script (one scalar, so no combining marks that an identifier
        // could not start a word with); digits only in ASCII, which Swift identifiers take.
        // In ASCII, letters and numbers are exactly `A`–`Z`, `a`–`z` and `0`–`9`.
        if character.isASCII { return character.isLetter || character.isNumber }
        return character.unicodeScalars.count == 1 && character.isLetter
    }

    private static func capitalizingFirst(_ word: Substring) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// `URLScheme` → `urlScheme`, `EUR` → `eur`, `Dark` → `dark`, `iOS` → `iOS`.
    private static func lowercasingLeadingCapitals(_ word: Substring) -> String {
        let capitals = word.prefix { $0.isUppercase }
        guard !capitals.isEmpty else { return String(word) }
        let rest = word.dropFirst(capitals.count)
        if capitals.count > 1, let next = rest.first, next.isLowercase {
            // The last capital starts the next word: URLScheme → url + Scheme.
            return capitals.dropLast().lowercased() + String(capitals.last!) + rest
        }
        return capitals.lowercased() + rest
    }

    private static func prefixingDigit(_ name: String) -> String {
        guard let first = name.first, first.isNumber else { return name }
        return "_" + name
    }
}
