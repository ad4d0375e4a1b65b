import Ensign
import EnsignYAML

/// (g) Loading 10,000 flags from a 1.2 MB YAML file already in memory, against a raw libyaml
/// event scan of the same bytes.
enum LoadEntries {
    static let flagCount = 10_000

    static func group() -> BenchmarkGroup {
        let fixture = Lazy { try LoadFixture(flagCount: flagCount) }
        let iterations = Iterations(full: 3, quick: 1)
        return .timed(
            "load 10,000 flags",
            [
                Benchmark(
                    id: "libyaml scan", name: "libyaml event scan (yaml_parser_parse)", iterations: iterations,
                    note: "every event parsed and deleted, nothing built: the floor for a libyaml-based loader"
                ) { count in
                    let bytes = try fixture.value.bytes
                    for _ in 0..<count { blackHole(LibYAMLScan.countEvents(in: bytes)) }
                },
                Benchmark(
                    id: "YAMLParser", name: "YAMLParser().documents(from:)", iterations: iterations,
                    reference: "libyaml scan"
                ) { count in
                    let bytes = try fixture.value.bytes
                    for _ in 0..<count { blackHole(try YAMLParser().documents(from: bytes, file: "catalog.yaml")) }
                },
                Benchmark(
                    id: "DefinitionLoader", name: "DefinitionLoader().loadDefinitions(from:)", iterations: iterations,
                    reference: "libyaml scan", target: .ratio(atMost: 2, aim: 1.5),
                    note: "parse, read and validate every definition, compile 1,250 targeting rules"
                ) { count in
                    let source = try fixture.value.source
                    for _ in 0..<count { blackHole(DefinitionLoader().loadDefinitions(from: [source])) }
                },
                Benchmark(
                    id: "AppContext", name: "AppContext(definitions:), load + resolve", iterations: iterations,
                    reference: "libyaml scan"
                ) { count in
                    let text = try fixture.value.text
                    for _ in 0..<count { blackHole(try AppContext(definitions: text, environment: "production")) }
                },
            ])
    }
}

/// The generated file, as text, bytes and a source, checked once.
final class LoadFixture {
    let text: String
    let bytes: [UInt8]
    let source: ConfigSource

    init(flagCount: Int) throws {
        text = GeneratedDefinitions.manyFlags(count: flagCount)
        bytes = Array(text.utf8)
        source = ConfigSource(name: "catalog.yaml", bytes: bytes)
        guard let events = LibYAMLScan.countEvents(in: bytes) else {
            throw BenchmarkFailure("libyaml cannot scan the generated file")
        }
        let loaded = DefinitionLoader().loadDefinitions(from: [source])
        guard !loaded.diagnostics.containsErrors, loaded.definitions.count == flagCount else {
            let errors = loaded.diagnostics.filter(\.isError).prefix(3).map(\.description)
            throw BenchmarkFailure(
                "the generated file should load \(flagCount) flags cleanly, got \(loaded.definitions.count): \(errors)")
        }
        printError(
            "  generated \(Figures.grouped(flagCount)) flags: \(Figures.bytes(Double(bytes.count))), "
                + "\(Figures.grouped(events)) libyaml events")
    }
}
