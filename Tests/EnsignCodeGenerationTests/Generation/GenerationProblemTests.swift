import Ensign
import EnsignCodeGeneration
import Testing

@Suite("Generating keys: names that collide, keywords, digits, missing defaults")
struct GenerationProblemTests {
    @Test("Keys that collide after camel-casing are an error naming both keys' path:line:column")
    func collision() throws {
        let problems = GenerationFixtures.problems(
            """
            version: 1
            flags:
              wallet.show-balance: { default: true }
              wallet.showBalance: { default: false }
            """)
        let diagnostic = try #require(problems.first)
        #expect(
            diagnostic.description
                == """
                flags/wallet.yaml:4:3: error: 'wallet.show-balance' and 'wallet.showBalance' both become the Swift name \
                '.walletShowBalance'; rename one of the keys
                flags/wallet.yaml:3:3: note: 'wallet.show-balance' is defined here
                """)
        #expect(problems.count == 1)
    }

    @Test("A flag and a preference may share a Swift name: they are members of different types")
    func flagAndPreferenceDoNotCollide() throws {
        let source = try GenerationFixtures.source(
            "flags:\n  dark-mode: { default: true }\npreferences:\n  darkMode: { default: false }\n")
        #expect(source.contains(#"static let darkMode = FlagKey<Bool>("dark-mode", default: true)"#))
        #expect(source.contains(#"static let darkMode = UserPreferenceKey<Bool>("darkMode", default: false)"#))
    }

    @Test("Enum types that collide are an error at both keys")
    func enumTypeCollision() throws {
        let problems = GenerationFixtures.problems(
            """
            flags:
              aB: { type: string, enum: [x], default: x }
            preferences:
              a.b: { type: string, enum: [y], default: y }
            """)
        #expect(
            problems.map(\.description) == [
                """
                flags/wallet.yaml:4:3: error: 'aB' and 'a.b' both become the Swift name 'enum AB'; rename one of the keys
                flags/wallet.yaml:2:3: note: 'aB' is defined here
                """
            ])
    }

    @Test("A generated enum may not take the name of a swiftType: in use")
    func enumNamedLikeSwiftType() throws {
        let problems = GenerationFixtures.problems(
            """
            flags:
              banner: { type: string, enum: [big, small], default: big }
              home.banner: { type: object, swiftType: Banner, default: {} }
            """)
        #expect(
            problems.map(\.description) == [
                """
                flags/wallet.yaml:2:3: error: 'banner' would generate the enum Banner, the type 'home.banner' names with \
                swiftType:; rename one of the keys, or give 'banner' a swiftType: too
                flags/wallet.yaml:3:3: note: 'home.banner' is defined here
                """
            ])
    }

    @Test("Enum values that make the same case name are an error")
    func caseCollision() throws {
        let problems = GenerationFixtures.problems(
            "flags:\n  locale: { type: string, enum: [fr-FR, fr_FR, en], default: en }\n")
        #expect(
            problems.map(\.description) == [
                "flags/wallet.yaml:2:3: error: 'locale' enum values \"fr-FR\" and \"fr_FR\" both become the Swift case"
                    + " 'frFR'; change one, or use 'swiftType:' with your own enum"
            ])
    }

    @Test("An enum value with no letters or digits is an error")
    func caseWithoutLetters() throws {
        let problems = GenerationFixtures.problems(
            "flags:\n  sign: { type: string, enum: [\"+\", minus], default: minus }\n")
        #expect(problems.first?.message.contains("enum value \"+\" has no letters or digits") == true)
    }

    @Test("A flagd key with no letters or digits is an error naming the key and its line, and nothing is generated")
    func keyWithoutLetters() throws {
        let problems = GenerationFixtures.problems(
            "flags:\n  \"@/:\": { default: false }\n  checkout.newFlow: { default: true }\n")
        #expect(problems.count == 1)
        #expect(
            problems.first?.message
                == "'@/:' has no letters or digits to make a Swift name from; rename the key")
        #expect(problems.first?.location.line == 2)
    }

    @Test("Keywords are declared in backticks, for keys and enum cases")
    func keywords() throws {
        let source = try GenerationFixtures.source(
            """
            flags:
              default: { default: false }
              in: { type: int, default: 3 }
              mode: { type: string, enum: [self, default], default: self }
            """)
        #expect(source.contains(#"public static let `default` = FlagKey<Bool>("default", default: false)"#))
        #expect(source.contains(#"public static let `in` = FlagKey<Int>("in", default: 3)"#))
        #expect(source.contains("    case `self`\n    case `default`\n"))
        #expect(source.contains(#"FlagKey<Mode>("mode", default: .`self`)"#))
    }

    @Test("Names that would start with a digit get a leading underscore")
    func digits() throws {
        let source = try GenerationFixtures.source(
            "flags:\n  2fa.required: { default: false }\n  scale: { type: string, enum: [1x, 2x], default: 2x }\n")
        #expect(source.contains(#"public static let _2faRequired = FlagKey<Bool>("2fa.required", default: false)"#))
        #expect(source.contains("    case _1x = \"1x\"\n    case _2x = \"2x\"\n"))
        #expect(source.contains("default: ._2x)"))
    }

    @Test("A flagd flag without a default variant is an error asking for one")
    func missingDefault() throws {
        let problems = GenerationFixtures.problems(
            """
            flags:
              newFlow:
                variants: { "on": true, "off": false }
            """)
        #expect(
            problems.map(\.description) == [
                "flags/wallet.yaml:2:3: error: 'newFlow' has no default, and a generated key needs one as its code"
                    + " default; add 'defaultVariant: <variant>' (one of off, on)"
            ])
    }

    @Test("Every problem is reported at once, in file order")
    func everyProblem() throws {
        let result = GenerationFixtures.generate(
            """
            flags:
              b: { variants: { x: 1 } }
              a-b: { default: 1 }
              aB: { default: 2 }
            """)
        #expect(result.diagnostics.map(\.location.line) == [2, 4])
    }
}
