import Ensign
import EnsignCodeGeneration
import Testing

@Suite("Generating keys is deterministic")
struct DeterminismTests {
    @Test("Two runs over the same definitions give the same bytes")
    func twoRuns() throws {
        let first = try #require(GenerationFixtures.generate(files: GenerationFixtures.everyKind).source)
        let second = try #require(GenerationFixtures.generate(files: GenerationFixtures.everyKind).source)
        #expect(Array(first.utf8) == Array(second.utf8))
    }

    @Test("Keys are sorted whatever order the files declare them in")
    func sortedKeys() throws {
        let forward = try GenerationFixtures.source(
            "flags:\n  b: { default: 1 }\n  a: { default: 2 }\n  c: { default: 3 }\n")
        let backward = try GenerationFixtures.source(
            "flags:\n  c: { default: 3 }\n  a: { default: 2 }\n  b: { default: 1 }\n")
        let positions = try ["(\"a\"", "(\"b\"", "(\"c\""].map { try #require(forward.range(of: $0)).lowerBound }
        #expect(positions == positions.sorted())
        // Only the doc comments' line numbers differ.
        #expect(forward.replacing(/yaml:\d+/, with: "") == backward.replacing(/yaml:\d+/, with: ""))
    }

    @Test("File names are written relative to the definitions directory, wherever it is")
    func relativePaths() throws {
        let yaml = "flags:\n  a: { default: 1 }\n"
        let here = GenerationFixtures.definitions(["flags/app.yaml": yaml])
        let there = GenerationFixtures.definitions(["/home/ci/checkout/flags/app.yaml": yaml])
        let local = KeyGenerator(options: KeyGenerationOptions(sourceDirectories: ["flags/"])).generate(from: here)
        let remote = KeyGenerator(options: KeyGenerationOptions(sourceDirectories: ["/home/ci/checkout/flags"]))
            .generate(from: there)
        let source = try #require(local.source)
        #expect(source == remote.source)
        #expect(source.contains("generated from app.yaml:2."))
    }

    @Test("Values of every kind of key come out in a fixed order: built-in types, then others by name")
    func groupOrder() throws {
        let source = try #require(GenerationFixtures.generate(files: GenerationFixtures.everyKind).source)
        let extensions = source.split(separator: "\n").filter { $0.hasPrefix("extension ") }
        #expect(
            extensions == [
                "extension FlagKey<Bool> {",
                "extension FlagKey<Int> {",
                "extension FlagKey<Double> {",
                "extension FlagKey<String> {",
                "extension FlagKey<JSONValue> {",
                "extension FlagKey<Banner> {",
                "extension FlagKey<Mode> {",
                "extension FlagKey<WalletCurrencyStyle> {",
                "extension UserPreferenceKey<Bool> {",
                "extension UserPreferenceKey<LocaleLanguage> {",
            ])
    }
}
