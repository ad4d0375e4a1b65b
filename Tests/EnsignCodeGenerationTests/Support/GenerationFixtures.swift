import Ensign
import EnsignCodeGeneration
import Testing

/// Definitions and generation from in-memory YAML, for the generator's tests.
enum GenerationFixtures {
    /// Loads definitions files (name → text), expecting them to be valid.
    static func definitions(_ files: [String: String], sourceLocation: SourceLocation = #_sourceLocation)
        -> DefinitionSet
    {
        let loader = DefinitionLoader(today: CalendarDay("2026-01-01")!)
        let loaded = loader.loadDefinitions(from: files.keys.sorted().map { ConfigSource(name: $0, text: files[$0]!) })
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)", sourceLocation: sourceLocation)
        return loaded.definitions
    }

    /// Generates keys for one definitions file in `flags/`.
    static func generate(
        _ yaml: String, file: String = "flags/wallet.yaml", access: KeyGenerationOptions.AccessLevel = .public,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> KeyGenerationResult {
        let set = definitions([file: yaml], sourceLocation: sourceLocation)
        let options = KeyGenerationOptions(accessLevel: access, sourceDirectories: ["flags"])
        return KeyGenerator(options: options).generate(from: set)
    }

    /// The problems one definitions file gives, which must generate nothing.
    static func problems(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Diagnostic] {
        let result = generate(yaml, sourceLocation: sourceLocation)
        #expect(result.source == nil, sourceLocation: sourceLocation)
        return result.diagnostics
    }

    /// The generated source for one definitions file, which must generate without errors.
    static func source(
        _ yaml: String, access: KeyGenerationOptions.AccessLevel = .public,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = generate(yaml, access: access, sourceLocation: sourceLocation)
        return try #require(result.source, "\(result.diagnostics)", sourceLocation: sourceLocation)
    }

    /// Generates keys for several definitions files in `flags/`.
    static func generate(files: [String: String], access: KeyGenerationOptions.AccessLevel = .public)
        -> KeyGenerationResult
    {
        let options = KeyGenerationOptions(accessLevel: access, sourceDirectories: ["flags"])
        return KeyGenerator(options: options).generate(from: definitions(files))
    }

    /// Every definition type, an enum, objects (plain and `swiftType:`), flagd variants,
    /// preferences, keywords and a digit-leading key: what the compile test builds.
    static let everyKind: [String: String] = ["flags/wallet.yaml": wallet, "flags/misc.yaml": misc]

    static let wallet = """
        version: 1
        namespace: wallet
        flags:
          showBalance:
            type: bool
            default: true
            description: Show the balance on the wallet screen.
            owner: payments
            expires: 2027-06-30
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100, description: Rows per page. }
          dailyLimit: { type: double, default: 2000, description: The most a user can send in a day. }
          greeting: { type: string, default: "Hello, \\"friend\\"\\n", description: Shown at the top. }
          currencyStyle:
            type: string
            enum: [symbol, code, ISO-name]
            default: code
            description: How amounts show their currency.
          limits: { type: object, default: { daily: 2000, weekly: [1, 2.5, "x", null, true] } }
          banner:
            type: object
            swiftType: Banner
            default: { title: Welcome, priority: 2 }
            description: The banner on the home screen.
          newFlow:
            variants: { "on": true, "off": false }
            defaultVariant: "on"
            description: The redesigned flow.
        """

    /// Keys without a namespace: keywords, a digit-leading key, preferences.
    static let misc = """
        version: 1
        flags:
          default: { default: false }
          in: { type: int, default: 3 }
          self: { default: "me" }
          init: { type: double, default: 1.5 }
          2fa.required: { default: false }
          mode: { type: string, enum: [default, self, "2x", Auto-Fit], default: self }
        preferences:
          appearance.darkMode: { type: bool, default: false, description: Use the dark theme. }
          locale.language: { type: string, enum: [en, fr, de, zh], default: en, description: The app's language. }
        """
}
