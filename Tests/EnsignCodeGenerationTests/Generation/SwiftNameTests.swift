import EnsignCodeGeneration
import Testing

@Suite("Swift names for keys and enum values")
struct SwiftNameTests {
    @Test(
        "A dotted or dashed key becomes one lower-camel-case member",
        arguments: [
            ("wallet.showBalance", "walletShowBalance"),
            ("appearance.darkMode", "appearanceDarkMode"),
            ("boolean-flag", "booleanFlag"),
            ("v2.rollout_pct", "v2RolloutPct"),
            ("Wallet.ShowBalance", "walletShowBalance"),
            ("URLScheme", "urlScheme"),
            ("EUR", "eur"),
            ("iOS.minimum", "iOSMinimum"),
            ("ISO-name", "isoName"),
        ])
    func members(key: String, member: String) {
        #expect(SwiftName.member(for: key) == member)
    }

    @Test("A name that would start with a digit gets a leading underscore")
    func digits() {
        #expect(SwiftName.member(for: "2fa.required") == "_2faRequired")
        #expect(SwiftName.member(for: "2x") == "_2x")
        #expect(SwiftName.type(for: "3d.mode") == "_3dMode")
    }

    @Test("Keywords are escaped with backticks; contextual words and other names are not")
    func keywords() {
        #expect(SwiftName.member(for: "default") == "`default`")
        #expect(SwiftName.member(for: "self") == "`self`")
        #expect(SwiftName.member(for: "in") == "`in`")
        #expect(SwiftName.member(for: "class") == "`class`")
        #expect(SwiftName.member(for: "get") == "get")
        #expect(SwiftName.member(for: "name") == "name")
        #expect(SwiftName.memberIdentifier(for: "default") == "default")
    }

    @Test("Enum type names are upper camel case, with a suffix when they would hide a common type")
    func types() {
        #expect(SwiftName.type(for: "wallet.currencyStyle") == "WalletCurrencyStyle")
        #expect(SwiftName.type(for: "locale.language") == "LocaleLanguage")
        #expect(SwiftName.type(for: "string") == "StringValue")
        #expect(SwiftName.type(for: "type") == "TypeValue")
        #expect(SwiftName.type(for: "flag-key") == "FlagKeyValue")
        #expect(SwiftName.type(for: "context.key") == "ContextKeyValue")
        #expect(SwiftName.type(for: "preference.key.kind") == "PreferenceKeyKindValue")
    }

    @Test("Text without letters or digits makes no name")
    func empty() {
        #expect(SwiftName.member(for: "--") == nil)
        #expect(SwiftName.member(for: "") == nil)
        #expect(SwiftName.type(for: "🚩") == nil)
    }

    @Test("Letters of any script are kept; other characters flagd keys hold separate words")
    func nonASCII() {
        #expect(SwiftName.member(for: "crème brûlée") == "crèmeBrûlée")
        #expect(SwiftName.member(for: "fr-FR") == "frFR")
        #expect(SwiftName.member(for: "team:checkout/v2@eu") == "teamCheckoutV2Eu")
        #expect(SwiftName.member(for: "my flag") == "myFlag")
        #expect(SwiftName.member(for: "🚀 launch") == "launch")
        #expect(SwiftName.type(for: "über.mode") == "ÜberMode")
    }
}
