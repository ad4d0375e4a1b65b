import Ensign
import EnsignCodeGeneration
import Testing

@Suite("Generating keys: types, defaults and documentation")
struct KeyGeneratorTests {
    @Test("Each definition type becomes its Swift type, with the definition's default as the code default")
    func builtInTypes() throws {
        let source = try GenerationFixtures.source(
            """
            version: 1
            namespace: wallet
            flags:
              showBalance: { default: true }
              pageSize: { type: int, default: -20 }
              dailyLimit: { type: double, default: 2000 }
              ratio: { type: double, default: 0.1 }
              greeting: { type: string, default: "Hi \\"you\\"\\\\\\n" }
            """)
        #expect(source.contains("extension FlagKey<Bool> {\n"))
        #expect(
            source.contains(
                #"public static let walletShowBalance = FlagKey<Bool>("wallet.showBalance", default: true)"#))
        #expect(source.contains(#"public static let walletPageSize = FlagKey<Int>("wallet.pageSize", default: -20)"#))
        #expect(
            source.contains(
                #"public static let walletDailyLimit = FlagKey<Double>("wallet.dailyLimit", default: 2000.0)"#))
        #expect(source.contains(#"public static let walletRatio = FlagKey<Double>("wallet.ratio", default: 0.1)"#))
        #expect(
            source.contains(
                #"public static let walletGreeting = FlagKey<String>("wallet.greeting", default: "Hi \"you\"\\\n")"#
            ))
    }

    @Test("A string with enum: gets a String-backed enum, used as the key's value type")
    func enumeration() throws {
        let source = try GenerationFixtures.source(
            """
            version: 1
            namespace: wallet
            flags:
              currencyStyle: { type: string, enum: [symbol, code, ISO-name, default], default: code }
            """)
        #expect(
            source.contains(
                """
                public enum WalletCurrencyStyle: String, CaseIterable, FlagValueConvertible {
                    case symbol
                    case code
                    case isoName = "ISO-name"
                    case `default`
                }
                """))
        #expect(source.contains("extension FlagKey<WalletCurrencyStyle> {"))
        #expect(
            source.contains(
                "public static let walletCurrencyStyle = FlagKey<WalletCurrencyStyle>(\"wallet.currencyStyle\","
                    + " default: .code)"))
    }

    @Test("An int with enum: stays an Int; only strings get an enum")
    func intEnumStaysInt() throws {
        let source = try GenerationFixtures.source(
            "flags:\n  size: { type: int, enum: [1, 2, 3], default: 2 }\n")
        #expect(source.contains(#"public static let size = FlagKey<Int>("size", default: 2)"#))
        #expect(!source.contains("enum Size"))
    }

    @Test("An object is a JSONValue built from its cases, members sorted")
    func object() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              limits: { type: object, default: { weekly: [1, 2.5, "x", null, true], daily: 2000, nested: {} } }
            """)
        #expect(
            source.contains(
                """
                    public static let limits = FlagKey<JSONValue>(
                        "limits",
                        default: .object([
                            "daily": .int(2000),
                            "nested": .object([:]),
                            "weekly": .array([.int(1), .double(2.5), .string("x"), .null, .bool(true)]),
                        ]))
                """))
    }

    @Test("swiftType: declares the key with the named type, converting the definition's default")
    func swiftType() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              home.banner: { type: object, swiftType: Banners.Banner, default: { title: Hi } }
            """)
        #expect(source.contains("extension FlagKey<Banners.Banner> {"))
        #expect(
            source.contains(
                """
                    public static let homeBanner = FlagKey<Banners.Banner>(
                        "home.banner",
                        default: Banners.Banner(generatedDefault: .object(["title": .string("Hi")]), key: "home.banner"))
                """))
    }

    @Test("A swiftType default too wide for one line is laid out one member per line")
    func wideSwiftTypeDefault() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              home.banner:
                type: object
                swiftType: Banner
                default: { title: "Welcome to the new home screen", subtitle: "Everything in one place", priority: 2 }
            """)
        #expect(
            source.contains(
                """
                        default: Banner(
                            generatedDefault: .object([
                                "priority": .int(2),
                                "subtitle": .string("Everything in one place"),
                                "title": .string("Welcome to the new home screen"),
                            ]),
                            key: "home.banner"))
                """))
    }

    @Test("A flagd flag's code default is its default variant's value")
    func defaultVariant() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              newFlow:
                state: DISABLED
                variants: { "on": true, "off": false }
                defaultVariant: "on"
              theme:
                variants: { light: { dark: false }, dark: { dark: true } }
                defaultVariant: dark
            """)
        #expect(source.contains(#"public static let newFlow = FlagKey<Bool>("newFlow", default: true)"#))
        #expect(
            source.contains(
                #"public static let theme = FlagKey<JSONValue>("theme", default: .object(["dark": .bool(true)]))"#))
    }

    @Test("Preferences are declared on UserPreferenceKey, after the flags")
    func preferences() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              zeta: { default: 1 }
            preferences:
              appearance.darkMode: { type: bool, default: false }
              locale.language: { type: string, enum: [en, fr], default: fr }
            """)
        let flags = try #require(source.range(of: "extension FlagKey<Int> {"))
        let preferences = try #require(source.range(of: "extension UserPreferenceKey<Bool> {"))
        #expect(flags.lowerBound < preferences.lowerBound)
        #expect(
            source.contains(
                #"public static let appearanceDarkMode = UserPreferenceKey<Bool>("appearance.darkMode", default: false)"#
            ))
        #expect(source.contains("public enum LocaleLanguage: String, CaseIterable, FlagValueConvertible {"))
        #expect(
            source.contains(
                #"UserPreferenceKey<LocaleLanguage>("locale.language", default: .fr)"#))
    }

    @Test("The doc comment is the description, owner, expiry, and the key with its file and line")
    func documentation() throws {
        let source = try GenerationFixtures.source(
            """
            version: 1
            flags:
              showBalance:
                default: true
                description: |
                  Show the balance.

                  On the wallet screen only.
                owner: payments
                expires: 2027-06-30
              bare: { default: 1 }
            """)
        #expect(
            source.contains(
                """
                    /// Show the balance.
                    ///
                    /// On the wallet screen only.
                    ///
                    /// - Owner: payments
                    /// - Expires: 2027-06-30
                    ///
                    /// Flag `showBalance`, generated from wallet.yaml:3.
                    public static let showBalance
                """))
        #expect(
            source.contains(
                """
                    /// Flag `bare`, generated from wallet.yaml:11.
                    public static let bare
                """))
    }

    @Test("The header says the file is generated, by what, with which options and from which files")
    func header() throws {
        let files = ["flags/b.yaml": "flags:\n  b: { default: 1 }\n", "flags/a.yaml": "flags:\n  a: { default: 1 }\n"]
        let source = try #require(GenerationFixtures.generate(files: files, access: .internal).source)
        #expect(
            source.hasPrefix(
                """
                // Generated by `ensign generate --access internal` from:
                //   a.yaml
                //   b.yaml
                // Do not edit: change the definitions, then generate again.

                import Ensign

                """))
        #expect(
            GeneratedKeysHeader(parsing: source)
                == GeneratedKeysHeader(accessLevel: .internal, files: ["a.yaml", "b.yaml"]))
    }

    @Test("Internal access writes no modifiers; public access marks every key and enum public")
    func accessLevels() throws {
        let yaml = "flags:\n  mode: { type: string, enum: [a, b], default: a }\n  on: { default: true }\n"
        let hidden = try GenerationFixtures.source(yaml, access: .internal)
        #expect(!hidden.contains("public"))
        #expect(hidden.contains("\n    static let on = FlagKey<Bool>"))
        #expect(hidden.contains("\nenum Mode: String"))
        let exposed = try GenerationFixtures.source(yaml, access: .public)
        #expect(exposed.contains("\n    public static let on = FlagKey<Bool>"))
        #expect(exposed.contains("\npublic enum Mode: String"))
    }
}
