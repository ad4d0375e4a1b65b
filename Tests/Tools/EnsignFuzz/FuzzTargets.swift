import Ensign
import EnsignControl
import EnsignJSON
import EnsignYAML

/// The code under fuzzing: each target takes arbitrary bytes and must never crash, hang or
/// leak, whatever they are. Errors are fine; traps are bugs.
enum FuzzTargets {
    /// Every target, in the order `scripts/fuzz` runs them. Each one's input format is
    /// documented at its function or type.
    static let names = ["yaml", "targeting", "control", "session", "fleet", "directory", "bundle", "ofrep", "remote"]

    /// Runs `bytes` through the target named `target`.
    static func run(_ target: String, _ bytes: [UInt8]) {
        switch target {
        case "yaml": yamlAndDefinitions(bytes)
        case "targeting": targeting(bytes)
        case "control": controlProtocol(bytes)
        case "session": SessionTarget.run(bytes)
        case "fleet": FleetTarget.run(bytes)
        case "directory": DirectoryTarget.run(bytes)
        case "bundle": BundleTarget.run(bytes)
        case "ofrep": OFREPTarget.run(bytes)
        case "remote": RemoteTarget.run(bytes)
        default: break
        }
    }

    /// The YAML layer, the definitions loader (on one thread and on two, which must agree) and
    /// overlay reading, and the emitter round trip; the same bytes as a `.json` file, whose
    /// reader must agree with the control protocol's JSON parser wherever both accept them.
    static func yamlAndDefinitions(_ bytes: [UInt8]) {
        let loader = DefinitionLoader(today: CalendarDay("2026-01-01")!)
        let source = ConfigSource(name: "fuzz.yaml", bytes: bytes)
        let loaded = loader.loadDefinitions(from: [source])
        _ = loader.readOverlay(source, definitions: loaded.definitions)
        _ = loader.loadDefinitions(from: [ConfigSource(name: "fuzz.json", bytes: bytes)])
        if let nodes = try? YAMLParser().documents(fromJSON: bytes, file: "fuzz.json"),
            let value = try? JSONValue(jsonBytes: bytes)
        {
            precondition(nodes.count == 1 && JSONValue(nodes[0]) == value, "the two JSON readers disagree")
        }
        // Loading on two threads (libyaml parsing ahead, rules compiled as they are read) must
        // give what loading on one gives, whatever the bytes.
        var parallel = loader
        parallel.parallelThreshold = 0
        let loadedInParallel = parallel.loadDefinitions(from: [source])
        precondition(
            loadedInParallel.definitions.keys == loaded.definitions.keys
                && loadedInParallel.diagnostics.map(\.description) == loaded.diagnostics.map(\.description),
            "loading on two threads differs from loading on one")
        if let documents = try? YAMLParser().documents(from: bytes, file: "fuzz.yaml"), !documents.isEmpty {
            // What the emitter writes must parse again.
            if let text = try? YAMLEmitter().text(forDocuments: documents) {
                _ = try? YAMLParser().documents(from: text, file: "emitted.yaml")
            }
        }
        // A context over definitions that loaded cleanly resolves every key.
        if !loaded.diagnostics.containsErrors {
            let evaluator = FlagEvaluator(definitions: loaded.definitions)
            for key in loaded.definitions.keys.prefix(50) {
                _ = evaluator.details(forKeyNamed: key, context: ["targetingKey": "fuzz", "country": "FR"])
            }
        }
    }

    /// The JsonLogic compiler and evaluator: the first line is the rule, the rest the data.
    static func targeting(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        guard let rule = try? JSONValue(jsonBytes: Array(bytes[..<split])) else { return }
        let data = split < bytes.endIndex ? (try? JSONValue(jsonBytes: Array(bytes[(split + 1)...]))) ?? .null : .null
        let compilation = TargetingRule.compile(rule, evaluators: ["shared": ["var": "x"]])
        guard let compiled = compilation.rule else { return }
        _ = compiled.evaluate(data: data, flagKey: "fuzz-flag")
        _ = compiled.evaluate(context: EvaluationContext(json: data), flagKey: "fuzz-flag", timestamp: 0)
        _ = compiled.possibleStringResults
    }

    /// The control protocol's parsers: each line a request (as the server reads it) and a
    /// reply or event (as the client reads it).
    static func controlProtocol(_ bytes: [UInt8]) {
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            _ = try? ControlRequest.parse(line: line)
            _ = try? ControlMessage.parse(line: line)
        }
    }
}

/// An input of the targets that have modes (`fleet`, `remote`): one selector byte, one cut byte,
/// then the payload. A selector that names none of `modes` picks one by its value modulo their
/// count, so that every input exercises some mode.
struct ModalInput {
    let mode: UInt8
    /// The cut byte, for the modes that read a stream in pieces.
    let cut: Int
    let payload: [UInt8]

    /// `nil` for an input too short to hold the selector and cut bytes.
    init?(_ bytes: [UInt8], modes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        mode = modes.contains(bytes[0]) ? bytes[0] : modes[Int(bytes[0]) % modes.count]
        cut = Int(bytes[1])
        payload = Array(bytes[2...])
    }
}
