import Ensign

/// Generates typed keys from definitions: the Swift source behind `ensign generate` and the
/// `EnsignKeysPlugin` build-tool plugin.
///
/// Every flag becomes a `static let` on `FlagKey` and every preference one on
/// `UserPreferenceKey`, named from its key (see ``SwiftName`` for the rules) and declared in
/// an extension for its value type, with the definition's default as the code default and its
/// `description`, `owner` and `expires` as the doc comment:
///
/// ```swift
/// extension FlagKey<Bool> {
///     /// Show the balance on the wallet screen.
///     ///
///     /// - Owner: payments
///     ///
///     /// Flag `wallet.showBalance`, generated from wallet.yaml:5.
///     public static let walletShowBalance = FlagKey<Bool>("wallet.showBalance", default: false)
/// }
/// ```
///
/// Types: `bool` → `Bool`, `int` → `Int`, `double` → `Double`, `string` → `String`, and
/// `object` → ``JSONValue``. A `string` with `enum:` gets a generated `String`-backed enum
/// (`wallet.currencyStyle` → `WalletCurrencyStyle`), and `swiftType:` names any other type
/// (typically a ``CodableFlagValue`` struct for an `object`). Only definitions make keys:
/// overlays never do.
///
/// The output is deterministic: keys are sorted, the layout is fixed, and file names are
/// written relative to ``KeyGenerationOptions/sourceDirectories``, so the same definitions
/// always give the same bytes.
///
/// ```swift
/// let loaded = DefinitionLoader().loadDirectory("flags")
/// let result = KeyGenerator(options: KeyGenerationOptions(accessLevel: .public, sourceDirectories: ["flags"]))
///     .generate(from: loaded.definitions)
/// if let source = result.source { print(source) } else { result.diagnostics.forEach { print($0) } }
/// ```
public struct KeyGenerator: Sendable {
    /// How the file is written.
    public var options: KeyGenerationOptions

    /// Creates a generator.
    public init(options: KeyGenerationOptions = KeyGenerationOptions()) {
        self.options = options
    }

    /// Generates the Swift file for `definitions`.
    ///
    /// Takes time proportional to the number of keys and the size of their defaults.
    package func generate(from definitions: DefinitionSet) -> KeyGenerationResult {
        let plan = KeyPlan(definitions: definitions)
        guard !plan.diagnostics.containsErrors else {
            return KeyGenerationResult(source: nil, diagnostics: plan.diagnostics, keyCount: 0)
        }
        let source = KeyFileRenderer(plan: plan, files: definitions.files, options: options).render()
        return KeyGenerationResult(source: source, diagnostics: plan.diagnostics, keyCount: plan.keys.count)
    }
}

/// What ``KeyGenerator/generate(from:)`` produced.
public struct KeyGenerationResult: Sendable {
    /// The Swift source, or `nil` when there are errors.
    public var source: String?
    /// Problems that stop generation (names that collide, keys without a default, enum values
    /// that make no case name), each at the key's `path:line:column`.
    public var diagnostics: [Diagnostic]
    /// How many keys the source declares.
    public var keyCount: Int
}
